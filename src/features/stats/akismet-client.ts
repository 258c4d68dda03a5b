import { fetchText, type ServiceError } from '../remote/http-fetch.js';
import { StaleOnErrorCache, type CachedResult, type Loaded } from '../remote/stale-on-error-cache.js';
import { isPlainObject } from '../../core/objects.js';

/** One period of the stats breakdown (a month for `6-months`, a year for `all`). */
export interface AkismetBreakdownRow {
  readonly spam: number;
  readonly ham: number;
  readonly missed_spam: number;
  readonly false_positives: number;
  /** Period start `YYYY-MM-DD`. */
  readonly da: string;
}

/** The `get-stats` object, field names as on the wire (docs/spec/services-facts.md §1.3). */
export interface AkismetStats {
  readonly spam: number;
  readonly ham: number;
  readonly missed_spam: number;
  readonly false_positives: number;
  /** Percent, e.g. 96.25; 0 without data. */
  readonly accuracy: number;
  /** Seconds. */
  readonly time_saved: number;
  readonly breakdown: Readonly<Record<string, AkismetBreakdownRow>>;
}

export type StatsInterval = '6-months' | 'all';

export type AkismetError = ServiceError | { readonly kind: 'invalid_key' };

/** `cached`: answered from the cache; `stale`: an expired cached answer, because the service failed. */
export type AkismetResult<T> = CachedResult<T, AkismetError>;

export interface AkismetClientOptions {
  /** Default `https://rest.akismet.com`. */
  readonly baseUrl?: string;
  /** Per call. Default 5000 ms. */
  readonly timeoutMs?: number;
  /** How long an answer is fresh. Default one hour. */
  readonly cacheTtlMs?: number;
  /** ms since the epoch. */
  readonly clock?: () => number;
  readonly userAgent?: string;
}

type Fetched<T> = Loaded<T, AkismetError>;

/** A refused key is an answer, not an outage: never hide it behind an old value. */
const outage = (error: AkismetError) => error.kind !== 'invalid_key';

function num(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** The stats object in the reference's shape; counters missing from the answer read as 0. */
export function toAkismetStats(value: Record<string, unknown>): AkismetStats {
  const breakdown: Record<string, AkismetBreakdownRow> = {};
  if (isPlainObject(value.breakdown)) {
    for (const [period, row] of Object.entries(value.breakdown)) {
      if (!isPlainObject(row)) continue;
      breakdown[period] = {
        spam: num(row.spam),
        ham: num(row.ham),
        missed_spam: num(row.missed_spam),
        false_positives: num(row.false_positives),
        da: typeof row.da === 'string' ? row.da : '',
      };
    }
  }
  return {
    spam: num(value.spam),
    ham: num(value.ham),
    missed_spam: num(value.missed_spam),
    false_positives: num(value.false_positives),
    accuracy: num(value.accuracy),
    time_saved: num(value.time_saved),
    breakdown,
  };
}

/**
 * A client of the Akismet REST protocol (`POST /1.1/<call>`, form-encoded). Answers are cached
 * for an hour per key, blog and call; when the service is down, slow or answers garbage, an
 * expired cached answer is served instead of the error.
 */
export class AkismetClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly keyCache: StaleOnErrorCache<'valid' | 'invalid', AkismetError>;
  private readonly statsCache: StaleOnErrorCache<AkismetStats, AkismetError>;

  constructor(options: AkismetClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? 'https://rest.akismet.com').replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 5000;
    const cache = { ttlMs: options.cacheTtlMs ?? 3_600_000, clock: options.clock ?? Date.now, serveStaleOn: outage };
    this.keyCache = new StaleOnErrorCache({ ...cache, max: 64 });
    this.statsCache = new StaleOnErrorCache({ ...cache, max: 128 });
    this.userAgent = options.userAgent ?? 'Siteward | Akismet-compatible client';
  }

  /** `verify-key`: the service's `valid` or `invalid`. */
  verifyKey(key: string, blog: string): Promise<AkismetResult<'valid' | 'invalid'>> {
    return this.keyCache.get(`${key}\n${blog}`, async () => {
      const answer = await this.post('verify-key', { key, api_key: key, blog });
      if (!answer.ok) return answer;
      const body = answer.value.trim();
      if (body === 'valid' || body === 'invalid') return { ok: true, value: body };
      return { ok: false, error: { kind: 'bad_response', message: `verify-key answered "${body.slice(0, 40)}"` } };
    });
  }

  /** `get-stats` for one interval; a refused key is `invalid_key`. */
  getStats(key: string, blog: string, interval: StatsInterval): Promise<AkismetResult<AkismetStats>> {
    return this.statsCache.get(`${key}\n${blog}\n${interval}`, async () => {
      const answer = await this.post('get-stats', { key, api_key: key, blog, from: interval });
      if (!answer.ok) return answer;
      const body = answer.value.trim();
      if (body === 'invalid') return { ok: false, error: { kind: 'invalid_key' } };
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return { ok: false, error: { kind: 'bad_response', message: 'get-stats answered something that is not JSON' } };
      }
      // The 2016 plugin stored any JSON and crashed on non-objects later; only objects are stats.
      if (!isPlainObject(parsed))
        return { ok: false, error: { kind: 'bad_response', message: 'get-stats answered JSON that is not an object' } };
      return { ok: true, value: toAkismetStats(parsed) };
    });
  }

  private async post(call: string, params: Record<string, string>): Promise<Fetched<string>> {
    const result = await fetchText(
      `${this.baseUrl}/1.1/${call}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', 'user-agent': this.userAgent },
        body: new URLSearchParams(params).toString(),
      },
      this.timeoutMs,
    );
    if (!result.ok) return result;
    if (result.status >= 500) return { ok: false, error: { kind: 'unavailable', message: `${call}: HTTP ${result.status}` } };
    if (result.status !== 200) return { ok: false, error: { kind: 'bad_response', message: `${call}: HTTP ${result.status}` } };
    return { ok: true, value: result.body };
  }
}
