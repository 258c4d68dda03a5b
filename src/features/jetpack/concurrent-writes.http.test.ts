/**
 * Many clients writing at once: parallel toggles and option updates must end in a state equal
 * to some serial order of the same requests (no lost update, records agree with the stored list).
 * The requests alternate between two instances on one store, as two workers of `siteward
 * start`: on PostgreSQL each instance commits its writes in batches that must not lose the other's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoggedIn, TestApp } from '../../../test/helpers/test-app.js';
import { pairStores, startWorkerPair, type WorkerPair } from '../../../test/helpers/worker-pair.js';
import { call } from '../jetpack-v4/testing/http-client.js';

type Modules = Record<string, { activated: boolean; options: Record<string, { current_value: unknown }> | null }>;

describe.each(pairStores)('concurrent writes over HTTP on %s', (backend) => {
  let pair: WorkerPair;
  let t: TestApp;
  let admins: LoggedIn[];
  /** The instance that serves request `i`: the two take turns. */
  const on = (i: number) => (i % 2 === 0 ? pair.first : pair.second);

  beforeEach(async () => {
    pair = await startWorkerPair(backend);
    t = pair.first;
    admins = [await t.loginAs('administrator'), await t.loginAs('administrator'), await t.loginAs('administrator')];
  });
  afterEach(() => pair.close());

  it('keep every toggle and every option update', async () => {
    const turnOn = ['carousel', 'markdown', 'minileven', 'infinite-scroll', 'tiled-gallery', 'site-icon'];
    const turnOff = ['latex', 'widgets', 'omnisearch'];
    const statsFields: Record<string, unknown> = { admin_bar: false, blog_id: true, do_not_track: false, hide_smile: false, version: 12 };
    const sharing: Record<string, unknown> = { button_style: 'text', sharing_label: 'Share it', show: ['post', 'page'] };
    const requests = [
      ...turnOn.map((slug) => ['PUT', `/module/${slug}/active`, { active: true }] as const),
      ...turnOff.map((slug) => ['PUT', `/module/${slug}/active`, { active: false }] as const),
      ...Object.entries(statsFields).map(([key, value]) => ['PUT', '/module/stats', { [key]: value }] as const),
      ...Object.entries(sharing).map(([key, value]) => ['PUT', '/module/sharedaddy', { [key]: value }] as const),
      ['PUT', '/notice/welcome/dismiss', undefined] as const,
      ['PUT', '/notice/feedback_dash_request/dismiss', undefined] as const,
    ];
    const responses = await Promise.all(
      requests.map(([method, path, body], i) => call(on(i), method, path, { as: admins[i % admins.length], ...(body && { body }) })),
    );
    expect(responses.map((r) => r.status)).toEqual(requests.map(() => 200));
    await pair.notified();

    const modules = (await call(t, 'GET', '/module/all', { as: admins[0] })).json as Modules;
    for (const slug of turnOn) expect(modules[slug]!.activated, slug).toBe(true);
    for (const slug of turnOff) expect(modules[slug]!.activated, slug).toBe(false);
    for (const [key, value] of Object.entries(statsFields)) expect(modules.stats!.options![key]!.current_value, key).toEqual(value);
    for (const [key, value] of Object.entries(sharing)) expect(modules.sharedaddy!.options![key]!.current_value, key).toEqual(value);
    expect(await t.store.options.get('jetpack_dismissed_notices')).toEqual({ welcome: true, feedback_dash_request: true });
  });

  it('settle conflicting toggles of one module on a state some serial order gives', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => ({ active: i % 2 === 0 }));
    const responses = await Promise.all(
      bodies.map((body, i) => call(on(i), 'PUT', '/module/carousel/active', { as: admins[i % 3], body })),
    );
    await pair.notified();
    // Every deactivation either found the module active (200) or not (409); the statuses must be
    // explainable by one serial order, so replay them in some order consistent with the answers.
    const ons = responses.filter((r, i) => bodies[i]!.active && r.status === 200).length;
    const offs = responses.filter((r, i) => !bodies[i]!.active && r.status === 200).length;
    const refused = responses.filter((r) => r.status === 409).length;
    expect(ons).toBe(6);
    expect(offs + refused).toBe(6);
    // A successful deactivation needs an activation before it: offs ≤ ons.
    expect(offs).toBeLessThanOrEqual(ons);
    const stored = (await t.store.options.get('active_modules')) as string[];
    const record = ((await call(t, 'GET', '/module/all', { as: admins[0] })).json as Modules).carousel!;
    expect(record.activated).toBe(stored.includes('carousel'));
    expect(stored.filter((s) => s === 'carousel').length).toBeLessThanOrEqual(1);
  });
});
