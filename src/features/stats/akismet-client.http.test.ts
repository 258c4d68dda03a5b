import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeAkismet, fakeAkismetStats } from '../../../test/helpers/fake-akismet.js';
import { freePort } from '../../../test/helpers/free-port.js';
import { AkismetClient } from './akismet-client.js';
import { akismetStatsAnswer } from './akismet-stats-answer.js';

const GOOD_KEY = 'abcdef123456';
const BLOG = 'https://example.com';
const HOUR = 3_600_000;

const statsFor = (from: string) => fakeAkismetStats(from);

/** A URL nobody listens on. */
const closedPortUrl = async () => `http://127.0.0.1:${await freePort()}`;

describe('Akismet client', () => {
  const fake = new FakeAkismet(GOOD_KEY, BLOG);
  let baseUrl: string;
  let now: number;
  const clock = () => now;

  beforeAll(async () => {
    baseUrl = await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.mode = 'normal';
    fake.requests.length = 0;
    now = 1_700_000_000_000;
  });

  it('reports a valid and an invalid key, posting key and blog as a form', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    expect(await client.verifyKey(GOOD_KEY, BLOG)).toEqual({ ok: true, value: 'valid', cached: false, stale: false });
    expect(await client.verifyKey('wrongkey1234', BLOG)).toMatchObject({ ok: true, value: 'invalid' });
    expect(fake.requests[0].path).toBe('/1.1/verify-key');
    expect(fake.requests[0].params.get('key')).toBe(GOOD_KEY);
    expect(fake.requests[0].params.get('blog')).toBe(BLOG);
  });

  it('returns the stats object of an interval in the reference shape', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    const result = await client.getStats(GOOD_KEY, BLOG, 'all');
    expect(result).toEqual({ ok: true, value: statsFor('all'), cached: false, stale: false });
    expect(fake.requests[0].params.get('from')).toBe('all');
  });

  it('reports stats for a refused key as invalid_key', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    expect(await client.getStats('wrongkey1234', BLOG, '6-months')).toEqual({ ok: false, error: { kind: 'invalid_key' } });
  });

  it('answers from the cache for an hour, then asks again', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    await client.getStats(GOOD_KEY, BLOG, 'all');
    now += HOUR - 1;
    expect(await client.getStats(GOOD_KEY, BLOG, 'all')).toMatchObject({ ok: true, cached: true, stale: false });
    expect(fake.requests).toHaveLength(1);
    now += 1;
    expect(await client.getStats(GOOD_KEY, BLOG, 'all')).toMatchObject({ ok: true, cached: false });
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a service that is down as unavailable', async () => {
    const client = new AkismetClient({ baseUrl: await closedPortUrl(), clock });
    const result = await client.verifyKey(GOOD_KEY, BLOG);
    expect(result).toMatchObject({ ok: false, error: { kind: 'unavailable' } });
  });

  it('serves the expired cached value while the service is down', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    await client.getStats(GOOD_KEY, BLOG, '6-months');
    await fake.stop();
    try {
      now += 2 * HOUR;
      expect(await client.getStats(GOOD_KEY, BLOG, '6-months')).toEqual({
        ok: true,
        value: statsFor('6-months'),
        cached: true,
        stale: true,
      });
    } finally {
      baseUrl = await fake.start();
    }
  });

  it('does not hide a key refused once its cached stats expired behind those stats', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    await client.getStats(GOOD_KEY, BLOG, 'all');
    fake.key = 'revoked-key-9876';
    try {
      now += 2 * HOUR;
      expect(await client.getStats(GOOD_KEY, BLOG, 'all')).toEqual({ ok: false, error: { kind: 'invalid_key' } });
    } finally {
      fake.key = GOOD_KEY;
    }
  });

  it('gives up on a service that never answers after the timeout', async () => {
    fake.mode = 'slow';
    const client = new AkismetClient({ baseUrl, clock, timeoutMs: 200 });
    const started = Date.now();
    expect(await client.verifyKey(GOOD_KEY, BLOG)).toEqual({ ok: false, error: { kind: 'timeout', ms: 200 } });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('reports a garbage body as a bad response, and serves the stale value if it has one', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    await client.verifyKey(GOOD_KEY, BLOG);
    fake.mode = 'garbage';
    expect(await client.getStats(GOOD_KEY, BLOG, 'all')).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
    now += 2 * HOUR;
    expect(await client.verifyKey(GOOD_KEY, BLOG)).toMatchObject({ ok: true, value: 'valid', stale: true });
  });

  it('builds the akismet/stats/get body: not_installed, invalid_key, or both intervals', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    expect(await akismetStatsAnswer(client, null)).toEqual({ kind: 'body', body: 'not_installed' });
    expect(await akismetStatsAnswer(client, { key: 'wrongkey1234', blog: BLOG })).toMatchObject({ kind: 'body', body: 'invalid_key' });
    expect(await akismetStatsAnswer(client, { key: GOOD_KEY, blog: BLOG })).toEqual({
      kind: 'body',
      body: { '6-months': statsFor('6-months'), all: statsFor('all') },
    });
  });

  it('answers unavailable, not invalid_key, when the service is down and nothing is cached', async () => {
    const client = new AkismetClient({ baseUrl: await closedPortUrl(), clock });
    expect(await akismetStatsAnswer(client, { key: GOOD_KEY, blog: BLOG })).toMatchObject({
      kind: 'unavailable',
      problem: { kind: 'unavailable' },
    });
  });
});
