/**
 * The REST pipeline's steps may answer with a value or with a promise (a cached login, a
 * synchronous endpoint, a body that is not multipart all answer at once). These helpers chain
 * them without awaiting a value that is not a promise.
 *
 * Speed: an `await` (or an async frame) per step costs a promise and a microtask turn per step
 * and request; with these, a request whose steps all answer at once takes none in the pipeline.
 */

/** `next(value)` now when `value` is not a promise, else once it settles. */
export function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * `run()`, then `next` of its answer; `fail` of what it threw or rejected with. Like
 * {@link andThen}, without a promise when `run` answers without one.
 */
export function attempt<T, U>(run: () => T | Promise<T>, next: (value: T) => U, fail: (error: unknown) => U): U | Promise<U> {
  let value: T | Promise<T>;
  try {
    value = run();
  } catch (error) {
    return fail(error);
  }
  return value instanceof Promise ? value.then(next, fail) : next(value);
}
