import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../../../test/helpers/test-app.js';
import { validateSchemaValue } from '../../rest/args/schema-value.js';

interface AbilityJson {
  name: string;
  category: string;
  input_schema: Record<string, unknown> | [];
  output_schema: Record<string, unknown> | [];
  meta: { annotations: { readonly: boolean | null; destructive: boolean | null; idempotent: boolean | null }; show_in_rest: boolean };
}

const backupDir = mkdtempSync(path.join(tmpdir(), 'siteward-ability-backups-'));
let app: TestApp;
let admin: Record<string, string>;
let author: Record<string, string>;
const ROOT = '/wp-json/wp-abilities/v1/abilities';
const abilities = new Map<string, AbilityJson>();

beforeAll(async () => {
  app = await createTestApp({
    env: { SITEWARD_TRUST_PROXY: '1', SITEWARD_PROTECT_CHALLENGE_AFTER: '0', SITEWARD_BACKUP_DIR: backupDir },
    startJobs: false,
  });
  await app.app.users.create({ login: 'boss', email: 'boss@example.org', role: 'administrator', password: 'boss-password-1' });
  await app.app.users.create({ login: 'writer', email: 'writer@example.org', role: 'author', password: 'writer-password-1' });
  const basic = async (login: string) => {
    const created = await app.app.authenticator.appPasswords.create(login, 'agent');
    if (!created.ok) throw new Error(created.message);
    return { Authorization: `Basic ${Buffer.from(`${login}:${created.password}`).toString('base64')}` };
  };
  admin = await basic('boss');
  author = await basic('writer');
  for (const ability of (await app.request({ path: `${ROOT}?per_page=100`, headers: admin })).json as AbilityJson[])
    abilities.set(ability.name, ability);
});
afterAll(async () => {
  await app.close();
  rmSync(backupDir, { recursive: true, force: true });
});

/** Runs an ability over REST by the method its annotations ask for; checks a success against its output_schema. */
async function run(name: string, input?: unknown, headers = admin): Promise<TestResponse> {
  const ability = abilities.get(name);
  if (!ability) throw new Error(`${name} is not listed`);
  const { readonly, destructive, idempotent } = ability.meta.annotations;
  const method = readonly ? 'GET' : destructive && idempotent ? 'DELETE' : 'POST';
  const query = method !== 'POST' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
  const res = await app.request({
    method,
    path: `${ROOT}/${name}/run${query}`,
    headers,
    body: method === 'POST' ? { input: input ?? null } : undefined,
  });
  if (res.status === 200 && !Array.isArray(ability.output_schema)) {
    expect(validateSchemaValue(res.json, ability.output_schema, 'output'), `${name}'s answer fits its output_schema`).toBe(true);
  }
  return res;
}

describe('Siteward’s abilities', () => {
  it('are WordPress’s three core ones and the siteward/* set, each with a category, schemas and all three annotations', () => {
    const names = [...abilities.keys()];
    expect(names).toEqual(expect.arrayContaining(['core/get-site-info', 'core/get-environment-info']));
    // core/get-user-info is not shown in REST, as in WordPress.
    expect(names).not.toContain('core/get-user-info');
    const siteward = names.filter((n) => n.startsWith('siteward/')).sort();
    expect(siteward).toEqual([
      'siteward/activate-module',
      'siteward/backup-now',
      'siteward/check-updates',
      'siteward/deactivate-module',
      'siteward/get-settings',
      'siteward/get-user',
      'siteward/list-audit-events',
      'siteward/list-backups',
      'siteward/list-blocks',
      'siteward/list-modules',
      'siteward/list-users',
      'siteward/monitor-history',
      'siteward/monitor-status',
      'siteward/unblock-address',
      'siteward/update-settings',
      'siteward/verify-backups',
    ]);
    for (const name of siteward) {
      const ability = abilities.get(name)!;
      expect(ability.category, name).toMatch(/^siteward-/);
      expect(Array.isArray(ability.output_schema), `${name} has an output_schema`).toBe(false);
      for (const hint of ['readonly', 'destructive', 'idempotent'] as const)
        expect(typeof ability.meta.annotations[hint], `${name} ${hint}`).toBe('boolean');
    }
  });

  it('core/get-site-info and core/get-environment-info answer what their schemas promise, for administrators only', async () => {
    const site = await run('core/get-site-info', { fields: ['name', 'url'] });
    expect(site.json).toEqual({ name: 'My Site', url: 'http://example.org' });
    expect((await run('core/get-environment-info')).json).toMatchObject({ environment: 'production', db_server_info: 'SQLite' });
    expect((await run('core/get-site-info', undefined, author)).status).toBe(403);
  });

  it('turn modules on and off with the operation of jetpack/v4/module/{slug}/active', async () => {
    const protect = async () =>
      ((await run('siteward/list-modules')).json as { module: string; activated: boolean }[]).find((m) => m.module === 'protect');
    expect((await run('siteward/deactivate-module', { slug: 'protect' })).json).toMatchObject({ code: 'success' });
    expect((await protect())?.activated).toBe(false);
    const on = await run('siteward/activate-module', { slug: 'protect' });
    expect(on.json).toEqual({ code: 'success', message: 'The requested Jetpack module was activated.' });
    const viaRoute = await app.request({ path: '/wp-json/jetpack/v4/module/all', headers: admin });
    expect((viaRoute.json as Record<string, { activated: boolean }>).protect!.activated).toBe(true);
    const unknown = await run('siteward/activate-module', { slug: 'no-such-module' });
    expect(unknown.status).toBe(404);
    expect((await run('siteward/activate-module', { slug: 'protect' }, author)).status).toBe(403);
  });

  it('are each recorded in the audit log as ability.run: the ability, its input, how it ended, the door and the credential', async () => {
    await run('siteward/deactivate-module', { slug: 'stats' });
    await run('siteward/activate-module', { slug: 'no-such-module' });
    const events = (await app.request({ path: '/wp-json/siteward/v1/audit?action=ability.run&per_page=100', headers: admin })).json as {
      result: string;
      actor: { login: string; credential: { type: string } };
      object: { id: string };
      changes: { input: { after: unknown }; via: { after: string }; error?: { after: string } };
    }[];
    const of = (id: string) => events.filter((e) => e.object.id === id);
    expect(of('siteward/deactivate-module').map((e) => e.changes.input.after)).toContainEqual({ slug: 'stats' });
    const stats = of('siteward/deactivate-module').find((e) => (e.changes.input.after as { slug: string }).slug === 'stats')!;
    expect(stats).toMatchObject({ result: 'ok', actor: { login: 'boss', credential: { type: 'application_password' } } });
    expect(stats.changes.via.after).toBe('rest');
    const failed = of('siteward/activate-module').find((e) => (e.changes.input.after as { slug: string }).slug === 'no-such-module')!;
    expect(failed).toMatchObject({ result: 'failed', changes: { error: { after: 'not_found' } } });
  });

  it('record a run refused by the ability’s permission as denied, over REST and over MCP', async () => {
    expect((await run('siteward/deactivate-module', { slug: 'monitor' }, author)).status).toBe(403);
    const mcp = await app.request({
      method: 'POST',
      path: '/wp-json/mcp/mcp-adapter-default-server',
      headers: { ...author, Accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'mcp-adapter-execute-ability',
          arguments: { ability_name: 'siteward/deactivate-module', parameters: { slug: 'sso' } },
        },
      },
    });
    expect(mcp.status).toBe(200);
    const events = (await app.request({ path: '/wp-json/siteward/v1/audit?action=ability.run&result=denied&per_page=100', headers: admin }))
      .json as {
      result: string;
      actor: { login: string };
      changes: { input: { after: { slug: string } }; via: { after: string }; error: { after: string } };
    }[];
    const rest = events.find((e) => e.changes.input.after.slug === 'monitor');
    expect(rest).toMatchObject({
      result: 'denied',
      actor: { login: 'writer' },
      changes: { via: { after: 'rest' }, error: { after: 'rest_ability_cannot_execute' } },
    });
    const viaMcp = events.find((e) => e.changes.input.after.slug === 'sso');
    expect(viaMcp).toMatchObject({
      result: 'denied',
      actor: { login: 'writer' },
      changes: { via: { after: 'mcp' }, error: { after: 'ability_invalid_permissions' } },
    });
  });

  it('read the audit log as GET siteward/v1/audit does: filters, paging and totals, for administrators only', async () => {
    await run('siteward/deactivate-module', { slug: 'stats' });
    await run('siteward/activate-module', { slug: 'stats' });
    // module.* events: the ability's own run (an ability.run event) must not shift the comparison.
    const all = await run('siteward/list-audit-events', { action: 'module.', per_page: 2 });
    expect(all.status).toBe(200);
    const page = all.json as { events: { id: number; action: string }[]; total: number; total_pages: number };
    expect(page.events).toHaveLength(2);
    expect(page.events.every((e) => e.action.startsWith('module.'))).toBe(true);
    const route = await app.request({ path: '/wp-json/siteward/v1/audit?action=module.&per_page=2', headers: admin });
    expect(page.events.map((e) => e.id)).toEqual((route.json as { id: number }[]).map((e) => e.id));
    expect(page.total).toBe(Number(route.headers['x-wp-total']));
    expect(page.total_pages).toBe(Number(route.headers['x-wp-totalpages']));
    const second = (await run('siteward/list-audit-events', { action: 'module.', per_page: 2, page: 2 })).json as {
      events: { id: number }[];
    };
    expect(second.events[0]!.id).toBeLessThan(page.events[1]!.id);
    expect((await run('siteward/list-audit-events', { page: 100000 })).json).toMatchObject({ code: 'rest_invalid_page_number' });
    expect((await run('siteward/list-audit-events', { result: 'maybe' })).status).toBe(400);
    expect((await run('siteward/list-audit-events', {}, author)).status).toBe(403);
  });

  it('read and change settings as jetpack/v4/settings does', async () => {
    const before = (await run('siteward/get-settings')).json as Record<string, unknown>;
    expect(before).toHaveProperty('protect', true);
    const changed = await run('siteward/update-settings', { settings: { jetpack_holiday_snow_enabled: true } });
    expect(changed.status).toBe(200);
    expect(((await run('siteward/get-settings')).json as Record<string, unknown>).jetpack_holiday_snow_enabled).toBe(true);
    const bad = await run('siteward/update-settings', { settings: { no_such_setting: 1 } });
    expect(bad.status).toBe(400);
  });

  it('list Protect’s blocks and lift one', async () => {
    const address = '203.0.113.9';
    for (let i = 0; i < 5; i += 1) {
      await app.request({
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org', 'X-Forwarded-For': address },
        body: 'log=boss&pwd=wrong-password',
      });
    }
    const listed = (await run('siteward/list-blocks', { active: true })).json as { total: number; blocks: { address: string }[] };
    expect(listed.blocks.map((b) => b.address)).toEqual([address]);
    expect((await run('siteward/unblock-address', { address })).json).toEqual({ unblocked: true, address });
    expect(((await run('siteward/list-blocks', { active: true })).json as { total: number }).total).toBe(0);
  });

  it('tell Monitor’s status, and its history only while the module is on', async () => {
    const status = (await run('siteward/monitor-status')).json as { active: boolean };
    expect(status.active).toBe(false);
    const history = await run('siteward/monitor-history', { days: 7 });
    expect(history.status).toBe(404);
    expect((history.json as { code: string }).code).toBe('not_active');
  });

  it('take, list and verify backups', async () => {
    expect((await run('siteward/backup-now')).json).toEqual({ started: true });
    let list: { running: boolean; targets?: unknown } = { running: true };
    for (let i = 0; i < 200 && list.running; i += 1) {
      list = (await run('siteward/list-backups')).json as typeof list;
      if (list.running) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(list.running).toBe(false);
    const verified = (await run('siteward/verify-backups')).json as { ok: boolean; targets: { ok: boolean; message: string }[] };
    expect(verified.targets.map((t) => t.message)).toEqual([
      'restored into a temporary store: integrity, row counts and an administrator login checked',
    ]);
    expect(verified.ok).toBe(true);
  });

  it('list users and read one, for those who may list users', async () => {
    const users = (await run('siteward/list-users', { role: 'administrator' })).json as { username: string }[];
    expect(users.map((u) => u.username)).toEqual(['boss']);
    const one = (await run('siteward/get-user', { id: 1 })).json as { username: string };
    expect(one.username).toBe('boss');
    expect((await run('siteward/get-user', { id: 999 })).status).toBe(404);
    expect((await run('siteward/list-users', {}, author)).status).toBe(403);
  });

  it('check plugin updates as jetpack/v4/updates/plugins does', async () => {
    const res = await run('siteward/check-updates');
    const route = await app.request({ path: '/wp-json/jetpack/v4/updates/plugins', headers: admin });
    expect(res.json).toEqual(route.json);
  });
});
