import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request header sink, so deprecation notices raised anywhere during a request reach its response. */
const current = new AsyncLocalStorage<Record<string, string>>();

/** Runs `fn` with a fresh header sink and returns its result together with the headers raised. */
export async function withDeprecationHeaders<T>(fn: () => Promise<T>): Promise<[T, Record<string, string>]> {
  const headers: Record<string, string> = {};
  const result = await current.run(headers, fn);
  return [result, headers];
}

/**
 * Reports a deprecated function: `X-WP-DeprecatedFunction: <fn> (since <v>; use <r> instead)`.
 * Outside a request it does nothing.
 */
export function deprecatedFunction(name: string, version: string, replacement?: string): void {
  const sink = current.getStore();
  if (!sink) return;
  const tail = replacement ? `use ${replacement} instead` : 'no alternative available';
  sink['X-WP-DeprecatedFunction'] = `${name} (since ${version}; ${tail})`;
}

/** Reports a deprecated argument: `X-WP-DeprecatedParam: <fn> (since <v>; <message>)`. */
export function deprecatedArgument(name: string, version: string, message?: string): void {
  const sink = current.getStore();
  if (!sink) return;
  sink['X-WP-DeprecatedParam'] = `${name} (since ${version}; ${message ? message : 'no alternative available'})`;
}
