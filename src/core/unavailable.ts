/**
 * A dependency that is down or not answering in time (the database during an outage), as
 * opposed to a bug. It sits at the bottom of the module graph because the layer that detects
 * it (the store) and the ones that answer for it (the REST layer, the HTTP adapter) must not
 * import each other: the store throws it, the others answer 503 with `Retry-After`.
 */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';

  constructor(
    /** What is unavailable, for logs. */
    readonly service: 'store',
    /** A short reason for logs (the driver's code or message), never sent to clients. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${service} unavailable: ${reason}`, options);
  }
}

/** Seconds a client is asked to wait before retrying while a dependency is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function isServiceUnavailable(error: unknown): error is ServiceUnavailableError {
  return error instanceof ServiceUnavailableError;
}
