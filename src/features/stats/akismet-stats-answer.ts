import type { ServiceError } from '../remote/http-fetch.js';
import type { AkismetClient, AkismetError, AkismetStats } from './akismet-client.js';

/** The Akismet key and the blog URL sent with it (the site's home URL). */
export interface AkismetConfig {
  readonly key: string;
  readonly blog: string;
}

/** What the plugin stored and the dashboard reads: one stats object per interval. */
export interface AkismetStatsPair {
  readonly '6-months': AkismetStats;
  readonly all: AkismetStats;
}

/**
 * The answer of `GET akismet/stats/get` (docs/spec/jetpack-v4-reference.md §3.23): a 200 body — the stats pair, or a
 * bare error-code string (`problem` says why for the log) — or, when the service could not
 * be asked and nothing was cached, `unavailable` (the route answers a 502 naming the service).
 */
export type AkismetStatsAnswer =
  | { readonly kind: 'body'; readonly body: AkismetStatsPair | 'not_installed' | 'invalid_key'; readonly problem?: AkismetError }
  | { readonly kind: 'unavailable'; readonly problem: ServiceError };

/**
 * No service configured → `not_installed`. The key is verified first; a refused key gives
 * `invalid_key`. The stats then come from two `get-stats` calls (`6-months`, `all`), as the
 * plugin made them. A service that is down, slow or answers garbage is not a refused key
 * (unlike the 2016 plugin): the client serves its expired cached answers then, and
 * with none the answer is `unavailable`.
 */
export async function akismetStatsAnswer(client: AkismetClient, config: AkismetConfig | null): Promise<AkismetStatsAnswer> {
  if (config === null || config.key === '') return { kind: 'body', body: 'not_installed' };
  const failed = (error: AkismetError): AkismetStatsAnswer =>
    error.kind === 'invalid_key' ? { kind: 'body', body: 'invalid_key', problem: error } : { kind: 'unavailable', problem: error };
  const verified = await client.verifyKey(config.key, config.blog);
  if (!verified.ok) return failed(verified.error);
  if (verified.value !== 'valid') return failed({ kind: 'invalid_key' });
  const [recent, all] = await Promise.all([
    client.getStats(config.key, config.blog, '6-months'),
    client.getStats(config.key, config.blog, 'all'),
  ]);
  if (!recent.ok) return failed(recent.error);
  if (!all.ok) return failed(all.error);
  return { kind: 'body', body: { '6-months': recent.value, all: all.value } };
}
