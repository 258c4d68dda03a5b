/** Time bounds and a reachability check around calls to the account service. */
import { failure, toConnectionError, type Failure } from './connection-errors.js';
import type { Result } from './site-connection.js';

/**
 * `run()`, or a `provider_timeout` failure once `ms` have passed, whichever comes first. The
 * engine bounds each network call; this bounds the whole operation (discovery, then a grant,
 * then userinfo), so the browser's answer comes within the one configured bound.
 */
export async function withDeadline<T>(ms: number, run: () => Promise<Result<T>>): Promise<Result<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Failure>((resolve) => {
    timer = setTimeout(() => resolve(failure('provider_timeout', `the account service did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([run(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Is the account service up and itself? Fetches its discovery document within `timeoutMs`. Used
 * before unlinking or disconnecting, whose revocations are best effort: when the provider is
 * down the site keeps its connection (and says so) instead of forgetting tokens that still work.
 */
export async function probeProvider(issuer: string, timeoutMs: number): Promise<Result<object>> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) return failure('provider_invalid', `the account service answered ${response.status} to discovery at ${issuer}`);
    let named: unknown;
    try {
      named = (JSON.parse(text) as { issuer?: unknown }).issuer;
    } catch {
      return failure('provider_invalid', `the account service's discovery document at ${issuer} is not JSON`);
    }
    if (named !== issuer) return failure('issuer_mismatch', `the account service does not identify as ${issuer} (discovery)`);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: toConnectionError(error, 'discovery', issuer) };
  }
}
