import type { CustomFetch } from 'openid-client';

/** Socket errors of a kept-alive connection the server had already closed. */
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);

/**
 * A fetch for openid-client whose every request (headers and body) is aborted after
 * `timeoutMs`, on top of any signal the library passes; a provider that accepts the connection
 * but never answers then fails as a TimeoutError instead of hanging the caller.
 *
 * A GET that fails on a stale kept-alive socket (the provider restarted) is sent once more,
 * within the same time bound; measured: right after a provider restart the first request on
 * the old pooled connection fails with UND_ERR_SOCKET "other side closed".
 */
export function boundedFetch(timeoutMs: number, base: typeof fetch = fetch): CustomFetch {
  return async (url, options) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    try {
      return await base(url, { ...options, signal });
    } catch (error) {
      if (options.method !== 'GET' || signal.aborted || !STALE_SOCKET.has(causeCode(error))) throw error;
      return base(url, { ...options, signal });
    }
  };
}

function causeCode(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
}
