import { fetchText, type ServiceError } from '../remote/http-fetch.js';
import { StaleOnErrorCache, type Loaded } from '../remote/stale-on-error-cache.js';

export type RegistryError =
  | ServiceError
  | { readonly kind: 'not_found' }
  | { readonly kind: 'rate_limited'; readonly retryAt: number }
  | { readonly kind: 'invalid_name' };

/** `stale`: an expired cached answer, served because the registry could not be asked or failed. */
export type LatestVersionResult =
  | { readonly ok: true; readonly latest: string; readonly cached: boolean; readonly stale: boolean }
  | { readonly ok: false; readonly error: RegistryError };

export interface RegistryClientOptions {
  /** Default `https://registry.npmjs.org`. */
  readonly baseUrl?: string;
  /** Per request. Default 5000 ms. */
  readonly timeoutMs?: number;
  /** Default 12 hours. */
  readonly cacheTtlMs?: number;
  /** Wait after a 429 without a usable `Retry-After`. Default 60 s. */
  readonly defaultRetryMs?: number;
  /** ms since the epoch. */
  readonly clock?: () => number;
}

const ABBREVIATED = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';
const NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;

/** The registry path of a package: a scoped name keeps its `@` and has the slash encoded (`@scope%2fname`). */
export function registryPath(name: string): string | null {
  if (!NAME.test(name) || name.length > 214) return null;
  if (!name.startsWith('@')) return encodeURIComponent(name);
  const [scope, pkg] = name.slice(1).split('/');
  return `@${encodeURIComponent(scope)}%2f${encodeURIComponent(pkg)}`;
}

/** `Retry-After` as seconds or an HTTP date → the time to wait until (ms), or null. */
export function retryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return now + Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(now, date);
}

interface Answer {
  /** null: the registry has no such package. */
  readonly latest: string | null;
}

/**
 * Asks an npm registry for `dist-tags.latest` of packages, with the abbreviated metadata
 * document. Answers (404s included) are cached for 12 h. After a 429 nothing is sent until
 * `Retry-After` has passed; meanwhile, as when the registry is down, slow or answers garbage,
 * an expired cached answer is served if there is one.
 */
export class RegistryClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly defaultRetryMs: number;
  private readonly clock: () => number;
  private readonly cache: StaleOnErrorCache<Answer, RegistryError>;
  /** Until when the registry asked us to stay away (ms since the epoch). */
  private blockedUntil = 0;

  constructor(options: RegistryClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? 'https://registry.npmjs.org').replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.defaultRetryMs = options.defaultRetryMs ?? 60_000;
    this.clock = options.clock ?? Date.now;
    this.cache = new StaleOnErrorCache({ max: 1024, ttlMs: options.cacheTtlMs ?? 12 * 3_600_000, clock: this.clock });
  }

  async latestVersion(name: string): Promise<LatestVersionResult> {
    const path = registryPath(name);
    if (path === null) return { ok: false, error: { kind: 'invalid_name' } };
    const result = await this.cache.get(name, () => this.ask(path, this.clock()));
    if (!result.ok) return result;
    if (result.value.latest === null) return { ok: false, error: { kind: 'not_found' } };
    return { ok: true, latest: result.value.latest, cached: result.cached, stale: result.stale };
  }

  private async ask(path: string, now: number): Promise<Loaded<Answer, RegistryError>> {
    if (now < this.blockedUntil) return { ok: false, error: { kind: 'rate_limited', retryAt: this.blockedUntil } };
    const result = await fetchText(`${this.baseUrl}/${path}`, { headers: { accept: ABBREVIATED } }, this.timeoutMs);
    if (!result.ok) return result;
    if (result.status === 404) return { ok: true, value: { latest: null } };
    if (result.status === 429) {
      this.blockedUntil = retryAfter(result.headers.get('retry-after'), now) ?? now + this.defaultRetryMs;
      return { ok: false, error: { kind: 'rate_limited', retryAt: this.blockedUntil } };
    }
    if (result.status >= 500) return { ok: false, error: { kind: 'unavailable', message: `registry: HTTP ${result.status}` } };
    if (result.status !== 200) return { ok: false, error: { kind: 'bad_response', message: `registry: HTTP ${result.status}` } };
    let document: unknown;
    try {
      document = JSON.parse(result.body);
    } catch {
      return { ok: false, error: { kind: 'bad_response', message: 'registry answered something that is not JSON' } };
    }
    const tags = (document as { 'dist-tags'?: unknown } | null)?.['dist-tags'];
    const latest = (tags as { latest?: unknown } | null | undefined)?.latest;
    if (typeof latest !== 'string')
      return { ok: false, error: { kind: 'bad_response', message: 'registry document has no dist-tags.latest' } };
    return { ok: true, value: { latest } };
  }
}
