import type { CustomFetch } from 'openid-client';

/**
 * A fetch for openid-client whose every request (headers and body) is aborted after
 * `timeoutMs`, on top of any signal the library passes; a provider that accepts the connection
 * but never answers then fails as a TimeoutError instead of hanging the caller.
 */
export function boundedFetch(timeoutMs: number, base: typeof fetch = fetch): CustomFetch {
  return (url, options) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    return base(url, { ...options, signal });
  };
}
