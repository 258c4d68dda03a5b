/**
 * Deprecation notices (docs/spec/site-management-api.md §4.4 rule 5): `X-WP-DeprecatedFunction` / `X-WP-DeprecatedParam`.
 *
 * Each request has its own header sink (`DeprecationSink`). Code that holds the request reports
 * through it (`request.deprecatedFunction(…)`). The module-level functions, used by
 * `api.deprecatedFunction(…)`, report to the request whose endpoint code is running right now:
 * the REST layer points `current` at that request's sink for the synchronous run of each
 * callback it calls. This deliberately avoids AsyncLocalStorage: on Node 20 it installs
 * promise hooks for the whole process, which cost about 14 % of the CPU of every request
 * (measured; see docs/performance.md). After an `await` the module-level functions here no
 * longer know the request; the request's own methods always do, and third-party plugins get
 * functions that do (src/plugins/request-context.ts tracks only their callbacks, and only while
 * one is in flight).
 */
export type DeprecationSink = Record<string, string>;

let current: DeprecationSink | null = null;

/** True while a callback's synchronous part runs (the module-level functions below then reach its request). */
export function hasCurrentSink(): boolean {
  return current !== null;
}

/** Calls `fn` with `sink` as the current request's sink for its synchronous run. */
export function withSink<T>(sink: DeprecationSink, fn: () => T): T {
  const previous = current;
  current = sink;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

export function functionNotice(sink: DeprecationSink, name: string, version: string, replacement?: string): void {
  const tail = replacement ? `use ${replacement} instead` : 'no alternative available';
  sink['X-WP-DeprecatedFunction'] = `${name} (since ${version}; ${tail})`;
}

export function argumentNotice(sink: DeprecationSink, name: string, version: string, message?: string): void {
  sink['X-WP-DeprecatedParam'] = `${name} (since ${version}; ${message ? message : 'no alternative available'})`;
}

/**
 * Reports a deprecated function: `X-WP-DeprecatedFunction: <fn> (since <v>; use <r> instead)`.
 * Outside endpoint code it does nothing.
 */
export function deprecatedFunction(name: string, version: string, replacement?: string): void {
  if (current) functionNotice(current, name, version, replacement);
}

/** Reports a deprecated argument: `X-WP-DeprecatedParam: <fn> (since <v>; <message>)`. */
export function deprecatedArgument(name: string, version: string, message?: string): void {
  if (current) argumentNotice(current, name, version, message);
}
