/**
 * The linked account as the admin client knows it (`wpcomUser` of docs/spec/jetpack-v4-reference.md §3.3),
 * filled from OpenID userinfo as docs/spec/compat.md §9 says: ID ← sub, login ← preferred_username,
 * email, display_name ← name, avatar ← picture. `ID` stays the provider's string `sub`.
 */
export interface WpcomUser {
  ID: string;
  login: string;
  email: string;
  display_name: string;
  avatar: string;
}

/** Userinfo claims kept in storage (only the ones the mapping reads). */
export interface StoredUserinfo {
  sub: string;
  preferred_username?: string;
  email?: string;
  name?: string;
  picture?: string;
}

/** Keeps the known string claims of a userinfo response; anything else is dropped. */
export function pickUserinfo(claims: Record<string, unknown>): StoredUserinfo {
  const text = (name: string): string | undefined => {
    const value = claims[name];
    return typeof value === 'string' ? value : undefined;
  };
  const picked: StoredUserinfo = { sub: text('sub') ?? '' };
  for (const name of ['preferred_username', 'email', 'name', 'picture'] as const) {
    const value = text(name);
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

export function toWpcomUser(info: StoredUserinfo): WpcomUser {
  return {
    ID: info.sub,
    login: info.preferred_username ?? '',
    email: info.email ?? '',
    display_name: info.name ?? info.preferred_username ?? '',
    avatar: info.picture ?? '',
  };
}
