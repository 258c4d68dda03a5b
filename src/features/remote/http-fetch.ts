/** What can go wrong talking to a remote service, for the clients of this feature. */
export type ServiceError =
  | { readonly kind: 'unavailable'; readonly message: string }
  | { readonly kind: 'timeout'; readonly ms: number }
  | { readonly kind: 'bad_response'; readonly message: string };

export type FetchResult =
  | { readonly ok: true; readonly status: number; readonly headers: Headers; readonly body: string }
  | { readonly ok: false; readonly error: ServiceError };

/** Responses bigger than this are refused (a stats object or an abbreviated packument is far smaller). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * One HTTP exchange with a deadline covering connect, headers and the whole body: a service
 * that accepts the connection and then says nothing must not hold a request of ours forever.
 */
export async function fetchText(url: string, init: RequestInit, timeoutMs: number): Promise<FetchResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal, redirect: 'follow' });
    const buffer = Buffer.from(await response.arrayBuffer());
    if (buffer.length > MAX_BODY_BYTES)
      return { ok: false, error: { kind: 'bad_response', message: `response larger than ${MAX_BODY_BYTES} bytes` } };
    return { ok: true, status: response.status, headers: response.headers, body: buffer.toString('utf8') };
  } catch (error) {
    if (controller.signal.aborted) return { ok: false, error: { kind: 'timeout', ms: timeoutMs } };
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail =
      typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : (error as Error).message;
    return { ok: false, error: { kind: 'unavailable', message: `${new URL(url).host}: ${detail}` } };
  } finally {
    clearTimeout(timer);
  }
}
