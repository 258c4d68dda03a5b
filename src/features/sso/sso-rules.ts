/**
 * Who a sign-in through the connection logs in (the `sso` module; Jetpack's SSO rules,
 * docs/spec/compat.md §9): the site user linked to the provider account, or, with
 * `jetpack_sso_match_by_email` on, the site user whose e-mail the provider says it verified
 * (linked on that first use). Nobody else: no account is ever created.
 */
import type { Store, UserRecord } from '../../store/types.js';
import type { AuditSource } from '../audit/index.js';
import type { LoginIdentity, SignInConnection } from '../connection/index.js';

/** Why nobody was logged in although the provider vouched for the person. */
export type SsoRefusal =
  /** No site user is linked to the account, and matching by e-mail is off. */
  | 'not_linked'
  /** Matching by e-mail is on, but the provider has not verified the address (or gave none). */
  | 'email_unverified'
  /** Matching by e-mail is on, the address is verified, and no site user has it. */
  | 'no_user'
  /** The site user with that e-mail is already linked to another account of the provider. */
  | 'linked_elsewhere'
  /** Several site users are linked to the same account: which one is meant is not guessed. */
  | 'ambiguous';

export type SsoDecision =
  { readonly ok: true; readonly user: UserRecord; readonly linkedNow: boolean } | { readonly ok: false; readonly refusal: SsoRefusal };

export async function decideSignIn(
  // `source`: who a link made here is recorded as (the user the e-mail matched, from the callback's address).
  deps: { readonly store: Store; readonly signIn: SignInConnection; readonly source: (user: UserRecord) => AuditSource },
  identity: LoginIdentity,
  matchByEmail: boolean,
): Promise<SsoDecision> {
  const linked = await deps.signIn.usersLinkedTo(identity.subject);
  if (linked.length > 1) return { ok: false, refusal: 'ambiguous' };
  const [only] = linked;
  if (only !== undefined) {
    const user = await deps.store.users.byId(only);
    return user === undefined ? { ok: false, refusal: 'not_linked' } : { ok: true, user, linkedNow: false };
  }
  if (!matchByEmail) return { ok: false, refusal: 'not_linked' };
  const email = identity.userinfo.email ?? '';
  // `email_verified` must be exactly true: an address the provider merely stores proves nothing.
  if (!identity.emailVerified || email === '') return { ok: false, refusal: 'email_unverified' };
  const user = await deps.store.users.byEmail(email);
  if (user === undefined) return { ok: false, refusal: 'no_user' };
  if ((await deps.signIn.linkedSubject(user.id)) !== undefined) return { ok: false, refusal: 'linked_elsewhere' };
  await deps.signIn.link(user.id, identity, deps.source(user));
  return { ok: true, user, linkedNow: true };
}
