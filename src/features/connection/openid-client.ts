import type * as OpenidClient from 'openid-client';

let loaded: typeof OpenidClient | undefined;

/**
 * openid-client (with oauth4webapi and jose), imported at the first connection operation rather
 * than at start: a server that never connects to an account service does not carry it in memory.
 */
export async function openidClient(): Promise<typeof OpenidClient> {
  loaded ??= await import('openid-client');
  return loaded;
}

/**
 * openid-client if a connection operation has imported it, else undefined: until then no error
 * of its classes can exist, so a check against them has nothing to find.
 */
export function loadedOpenidClient(): typeof OpenidClient | undefined {
  return loaded;
}
