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
 * The body of `GET akismet/stats/get` (reference §3.23, always HTTP 200): the stats pair, or a
 * bare error-code string. `problem` is for the log only (why the body is `invalid_key`).
 */
export interface AkismetStatsAnswer {
  readonly body: AkismetStatsPair | 'not_installed' | 'invalid_key';
  readonly problem?: AkismetError;
}

/**
 * No service configured → `not_installed`. The key is verified first; a refused key, and as
 * in the reference a verification that failed (service down with nothing cached), give
 * `invalid_key`. The stats then come from two `get-stats` calls (`6-months`, `all`), as the
 * plugin made them; if either cannot be had even from the cache, the answer is `invalid_key`
 * too, since the dashboard knows no other error code.
 */
export async function akismetStatsAnswer(client: AkismetClient, config: AkismetConfig | null): Promise<AkismetStatsAnswer> {
  if (config === null || config.key === '') return { body: 'not_installed' };
  const verified = await client.verifyKey(config.key, config.blog);
  if (!verified.ok) return { body: 'invalid_key', problem: verified.error };
  if (verified.value !== 'valid') return { body: 'invalid_key', problem: { kind: 'invalid_key' } };
  const [recent, all] = await Promise.all([
    client.getStats(config.key, config.blog, '6-months'),
    client.getStats(config.key, config.blog, 'all'),
  ]);
  if (!recent.ok) return { body: 'invalid_key', problem: recent.error };
  if (!all.ok) return { body: 'invalid_key', problem: all.error };
  return { body: { '6-months': recent.value, all: all.value } };
}
