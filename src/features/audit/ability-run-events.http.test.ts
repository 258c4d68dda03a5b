/**
 * Readonly ability runs collapse (docs/audit-log.md "Readonly ability runs"): the first run of a
 * kind in a window is written at once, identical repeats become one event with their count when
 * the window ends; any other ability's runs are each their own event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ABILITY_RUN_WINDOW_MS } from './ability-runs.js';

const ROOT = '/wp-json/wp-abilities/v1/abilities';
const START = 1_800_000_000_000;

interface RunEvent {
  id: number;
  time: number;
  result: string;
  actor: { login: string; credential: { type: string; uuid?: string } };
  object: { id: string };
  changes: { input: { after: unknown }; via: { after: string }; error?: { after: string } };
  count?: number;
  first_time?: number;
  last_time?: number;
}

let now = START;
const dirs: string[] = [];
const apps: TestApp[] = [];

async function site(dataDir?: string): Promise<{ app: TestApp; basic(login: string, role?: string): Promise<Record<string, string>> }> {
  const app = await createTestApp({ clock: () => now, startJobs: false, ...(dataDir === undefined ? {} : { dataDir }) });
  apps.push(app);
  return {
    app,
    basic: async (login, role) => {
      if (role !== undefined) await app.app.users.create({ login, email: `${login}@example.org`, role, password: `${login}-password-1` });
      const created = await app.app.authenticator.appPasswords.create(login, `agent ${Math.random()}`);
      if (!created.ok) throw new Error(created.message);
      return { Authorization: `Basic ${Buffer.from(`${login}:${created.password}`).toString('base64')}` };
    },
  };
}

async function runGet(app: TestApp, name: string, headers: Record<string, string>, input?: unknown): Promise<number> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return (await app.request({ path: `${ROOT}/${name}/run${query}`, headers })).status;
}

async function runEvents(app: TestApp, headers: Record<string, string>, ability: string): Promise<RunEvent[]> {
  const res = await app.request({ path: '/wp-json/siteward/v1/audit?action=ability.run&per_page=100', headers });
  expect(res.status).toBe(200);
  return (res.json as RunEvent[]).filter((e) => e.object.id === ability).sort((a, b) => a.id - b.id);
}

afterAll(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('Readonly ability runs in the audit log', () => {
  let app: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    now = START;
    const s = await site();
    app = s.app;
    admin = await s.basic('boss', 'administrator');
  });

  it('write the first run at once and its identical repeats as one event with their count, first and last time once the window ends', async () => {
    now = START;
    expect(await runGet(app, 'siteward/list-modules', admin)).toBe(200);
    for (let i = 1; i <= 4; i++) {
      now = START + i * 1_000;
      expect(await runGet(app, 'siteward/list-modules', admin)).toBe(200);
    }
    let events = await runEvents(app, admin, 'siteward/list-modules');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ result: 'ok', actor: { login: 'boss', credential: { type: 'application_password' } } });
    expect(events[0]!.count).toBeUndefined();

    now = START + ABILITY_RUN_WINDOW_MS + 1;
    await app.app.jobs.tick();
    events = await runEvents(app, admin, 'siteward/list-modules');
    expect(events).toHaveLength(2);
    const { id: _firstId, time: _firstTime, ...first } = events[0]!;
    const { id: _summaryId, time: _summaryTime, count, first_time, last_time, ...summary } = events[1]!;
    expect({ count, first_time, last_time }).toEqual({ count: 4, first_time: START + 1_000, last_time: START + 4_000 });
    // The summary says what each repeat would have said: ability, input, door, user, credential, result.
    expect(summary).toEqual(first);

    // The window is over: the next run is written at once, and the job has nothing more to write.
    now += 1_000;
    expect(await runGet(app, 'siteward/list-modules', admin)).toBe(200);
    await app.app.jobs.tick();
    expect(await runEvents(app, admin, 'siteward/list-modules')).toHaveLength(3);
  });

  it('keep each different input, credential and result apart: each kind writes its own first run', async () => {
    now = START + 10 * ABILITY_RUN_WINDOW_MS;
    const other = await (async () => {
      const created = await app.app.authenticator.appPasswords.create('boss', 'second agent');
      if (!created.ok) throw new Error(created.message);
      return { Authorization: `Basic ${Buffer.from(`boss:${created.password}`).toString('base64')}`, uuid: created.info.uuid };
    })();
    const writer = await app.app.users
      .create({ login: 'writer', email: 'writer@example.org', role: 'author', password: 'writer-password-1' })
      .then(async () => {
        const created = await app.app.authenticator.appPasswords.create('writer', 'agent');
        if (!created.ok) throw new Error(created.message);
        return { Authorization: `Basic ${Buffer.from(`writer:${created.password}`).toString('base64')}` };
      });
    const name = 'siteward/list-audit-events';
    for (let i = 0; i < 3; i++) {
      expect(await runGet(app, name, admin, { action: 'module.', per_page: 1 })).toBe(200);
      expect(await runGet(app, name, admin, { action: 'module.', per_page: 2 })).toBe(200);
      expect(await runGet(app, name, { Authorization: other.Authorization }, { action: 'module.', per_page: 1 })).toBe(200);
      expect(await runGet(app, name, writer, { action: 'module.', per_page: 1 })).toBe(403);
      expect(await runGet(app, name, admin, { action: 'ability.', per_page: 1, page: 999 })).toBe(400);
    }
    const events = await runEvents(app, admin, name);
    expect(events).toHaveLength(5);
    expect(events.map((e) => [e.actor.login, e.result, e.changes.input.after, e.changes.error?.after ?? null])).toEqual([
      ['boss', 'ok', { action: 'module.', per_page: 1 }, null],
      ['boss', 'ok', { action: 'module.', per_page: 2 }, null],
      ['boss', 'ok', { action: 'module.', per_page: 1 }, null],
      ['writer', 'denied', { action: 'module.', per_page: 1 }, 'rest_ability_cannot_execute'],
      ['boss', 'failed', { action: 'ability.', per_page: 1, page: 999 }, 'rest_invalid_page_number'],
    ]);
    expect(events[2]!.actor.credential.uuid).toBe(other.uuid);
    expect(events.every((e) => e.count === undefined)).toBe(true);

    now += ABILITY_RUN_WINDOW_MS;
    await app.app.jobs.tick();
    const summaries = (await runEvents(app, admin, name)).slice(5);
    expect(summaries.map((e) => [e.actor.login, e.result, e.changes.input.after, e.count])).toEqual([
      ['boss', 'ok', { action: 'module.', per_page: 1 }, 2],
      ['boss', 'ok', { action: 'module.', per_page: 2 }, 2],
      ['boss', 'ok', { action: 'module.', per_page: 1 }, 2],
      ['writer', 'denied', { action: 'module.', per_page: 1 }, 2],
      ['boss', 'failed', { action: 'ability.', per_page: 1, page: 999 }, 2],
    ]);
  });

  it('never collapse a destructive ability: identical runs are each their own event', async () => {
    now = START + 20 * ABILITY_RUN_WINDOW_MS;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request({
        method: 'DELETE',
        path: `${ROOT}/siteward/deactivate-module/run?input=${encodeURIComponent(JSON.stringify({ slug: 'stats' }))}`,
        headers: admin,
      });
      statuses.push(res.status);
    }
    // The second and third runs are identical (already inactive): a readonly ability's would collapse.
    expect(statuses).toEqual([200, 409, 409]);
    now += ABILITY_RUN_WINDOW_MS;
    await app.app.jobs.tick();
    const events = await runEvents(app, admin, 'siteward/deactivate-module');
    expect(events.map((e) => [e.result, e.changes.error?.after ?? null, e.count])).toEqual([
      ['ok', null, undefined],
      ['failed', 'already_inactive', undefined],
      ['failed', 'already_inactive', undefined],
    ]);
  });
});

describe('A graceful stop', () => {
  it('writes the repeats counted so far, before the store closes', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'siteward-ability-stop-'));
    dirs.push(dataDir);
    now = START;
    const first = await site(dataDir);
    const admin = await first.basic('boss', 'administrator');
    for (let i = 0; i < 3; i++) {
      now = START + i * 1_000;
      expect(await runGet(first.app, 'siteward/list-modules', admin)).toBe(200);
    }
    await first.app.close();

    const second = await site(dataDir);
    const events = await runEvents(second.app, admin, 'siteward/list-modules');
    expect(events.map((e) => [e.count, e.first_time, e.last_time])).toEqual([
      [undefined, undefined, undefined],
      [2, START + 1_000, START + 2_000],
    ]);
  });
});
