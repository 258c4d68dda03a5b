/**
 * Two-factor authentication of one site: enrolment (a TOTP secret confirmed by a first code),
 * the check of a code at login (TOTP, each time step once, or a recovery code, each once),
 * recovery codes, and which roles must use it.
 */
import { hkdfSync } from 'node:crypto';
import { TokenSealer } from '../../auth/token-sealer.js';
import type { OptionsRepo, UserRecord } from '../../store/types.js';
import { phpTruthy } from '../../core/php.js';
import { newRecoveryCodes, newTotpSecret, normalizeCode, qrDataUrl, recoveryHash, totpStep, totpUri } from './codes.js';
import type { TwoFactorRepo } from './repo.js';
import { auditEvent, type AuditSource } from '../audit/index.js';
import type { AuditEventInput } from '../../wire/audit.js';

/** The user's own second factor, when the caller does not say who acts (the enrol page). */
function selfSource(userId: number): AuditSource {
  return {
    actor: { kind: 'user', user_id: userId, login: '', credential: { type: 'none' } },
    client_ip: '',
    user_agent: '',
    request_id: '',
  };
}

const twoFactorObject = (userId: number) => ({ type: 'user', id: String(userId), name: 'two-factor' });

export interface TwoFactorStatus {
  /** A confirmed second factor is asked at every password login. */
  readonly enabled: boolean;
  /** An enrolment was started and awaits its first code. */
  readonly pending: boolean;
  readonly recoveryCodesLeft: number;
  /** The user's role must use two-factor (`SITEWARD_TWO_FACTOR_REQUIRED_ROLES`, `jetpack_sso_require_two_step`). */
  readonly required: boolean;
}

export interface Enrolment {
  /** Base32, for typing into an app by hand. */
  readonly secret: string;
  readonly uri: string;
  /** The QR code of `uri`, an SVG data URL. */
  readonly qr: string;
}

export type ConfirmResult =
  | { readonly ok: true; readonly recoveryCodes: string[] }
  | { readonly ok: false; readonly why: 'not-started' | 'already-enabled' | 'invalid-code' };

export interface TwoFactorServiceOptions {
  readonly repo: TwoFactorRepo;
  readonly options: OptionsRepo;
  /** ctx.secrets.encryptionKey: the sealing and recovery-code keys are derived from it, one per purpose. */
  readonly encryptionKey: Uint8Array;
  readonly clock: () => number;
  /** The name authenticator apps show above the account (the site's host). */
  readonly issuer: string;
  readonly requiredRoles: () => readonly string[];
}

export class TwoFactorService {
  readonly #sealer: TokenSealer;
  readonly #recoveryKey: Buffer;

  constructor(private readonly o: TwoFactorServiceOptions) {
    this.#sealer = new TokenSealer(Buffer.from(hkdfSync('sha256', o.encryptionKey, 'siteward', 'siteward two-factor secrets v1', 32)));
    this.#recoveryKey = Buffer.from(hkdfSync('sha256', o.encryptionKey, 'siteward', 'siteward two-factor recovery codes v1', 32));
  }

  async enabled(userId: number): Promise<boolean> {
    return (await this.o.repo.find(userId))?.enabled === true;
  }

  /** Whether a user of these roles must use two-factor. */
  async required(roles: readonly string[]): Promise<boolean> {
    const wanted = new Set(this.o.requiredRoles());
    // Jetpack's "Require Two-Step Authentication" is about administrators (docs/spec: the sso module's options).
    if (phpTruthy(await this.o.options.get('jetpack_sso_require_two_step'))) wanted.add('administrator');
    return roles.some((role) => wanted.has(role));
  }

  /** True while a user whose role requires two-factor has not enrolled: the admin page sends them to enrolment. */
  async mustEnrol(userId: number, roles: readonly string[]): Promise<boolean> {
    return (await this.required(roles)) && !(await this.enabled(userId));
  }

  async status(userId: number, roles: readonly string[]): Promise<TwoFactorStatus> {
    const row = await this.o.repo.find(userId);
    return {
      enabled: row?.enabled === true,
      pending: row !== null && !row.enabled,
      recoveryCodesLeft: row?.enabled ? await this.o.repo.recoveryLeft(userId) : 0,
      required: await this.required(roles),
    };
  }

  /** Starts (or restarts) an enrolment: a new secret, not asked at login until confirmed. Null when already enabled. */
  async begin(user: UserRecord, source: AuditSource = selfSource(user.id)): Promise<Enrolment | null> {
    const secret = await newTotpSecret();
    // Not yet in force (two_factor is still off), so the change is only `enrolling`; never the secret.
    const event = auditEvent(source, 'two_factor.enrolment_started', twoFactorObject(user.id), {
      enrolling: { before: false, after: true },
    });
    if (!(await this.o.repo.begin(user.id, this.#sealer.seal(secret, context(user.id)), this.o.clock(), event))) return null;
    return this.#enrolment(user, secret);
  }

  /** The enrolment in progress (the same secret, shown again), or null. */
  async current(user: UserRecord): Promise<Enrolment | null> {
    const row = await this.o.repo.find(user.id);
    if (!row || row.enabled) return null;
    return this.#enrolment(user, this.#open(user.id, row.secret));
  }

  /** Confirms an enrolment with a first code: from now on logins ask for one. Returns the recovery codes, shown once. */
  async confirm(userId: number, code: string, source: AuditSource = selfSource(userId)): Promise<ConfirmResult> {
    const row = await this.o.repo.find(userId);
    if (!row) return { ok: false, why: 'not-started' };
    if (row.enabled) return { ok: false, why: 'already-enabled' };
    const step = await totpStep(this.#open(userId, row.secret), normalizeCode(code), this.o.clock(), row.lastStep);
    const event = auditEvent(source, 'two_factor.enrolled', twoFactorObject(userId), { two_factor: { before: false, after: true } });
    if (step === null || !(await this.o.repo.enable(userId, step, event))) return { ok: false, why: 'invalid-code' };
    // The first codes belong to the enrolment (two_factor.enrolled), so they are not an event of their own.
    return { ok: true, recoveryCodes: await this.#newRecoveryCodes(userId) };
  }

  /**
   * The second factor at login: a current TOTP code (each time step accepted once) or an unused
   * recovery code (then used up). False for anything else, and for a user without two-factor.
   */
  async verify(userId: number, input: string): Promise<boolean> {
    const row = await this.o.repo.find(userId);
    if (!row?.enabled) return false;
    const code = normalizeCode(input);
    if (/^\d{6}$/.test(code)) {
      const step = await totpStep(this.#open(userId, row.secret), code, this.o.clock(), row.lastStep);
      return step !== null && (await this.o.repo.takeStep(userId, step, false));
    }
    return code.length === 10 && this.o.repo.useRecovery(userId, recoveryHash(this.#recoveryKey, code), this.o.clock());
  }

  /** New recovery codes (the old ones stop working); shown once, stored as HMACs. */
  async regenerate(userId: number, source: AuditSource = selfSource(userId)): Promise<string[]> {
    const event = auditEvent(source, 'two_factor.recovery_codes_regenerated', twoFactorObject(userId), {
      recovery_codes: { secret: true },
    });
    return this.#newRecoveryCodes(userId, event);
  }

  async #newRecoveryCodes(userId: number, event?: AuditEventInput): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.o.repo.setRecovery(
      userId,
      codes.map((c) => recoveryHash(this.#recoveryKey, c)),
      event,
    );
    return codes;
  }

  /** Turns two-factor off for a user (disable with the password, or `siteward user 2fa reset`). */
  remove(
    userId: number,
    source: AuditSource = selfSource(userId),
    action: 'two_factor.disabled' | 'two_factor.reset' = 'two_factor.disabled',
  ): Promise<boolean> {
    return this.o.repo.remove(userId, auditEvent(source, action, twoFactorObject(userId), { two_factor: { before: true, after: false } }));
  }

  async #enrolment(user: UserRecord, secret: string): Promise<Enrolment> {
    const uri = await totpUri(secret, this.o.issuer, user.login);
    return { secret, uri, qr: await qrDataUrl(uri) };
  }

  #open(userId: number, sealed: string): string {
    return this.#sealer.open(sealed, context(userId));
  }
}

/** The associated data of a sealed secret: a secret copied to another user's row does not open. */
function context(userId: number): string {
  return `two-factor:${userId}`;
}
