/**
 * `siteward audit tail -f` through the CLI's entry point on a real store: the last lines first,
 * then events written by another connection as they commit, with the filters; a stop signal
 * ends it with exit 0. (SIGINT itself, sent to the built CLI as a process, is in
 * audit-tail-signal.slow.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli.js';
import { featureMigrations } from '../../compose.js';
import { builtInFeatures } from '../index.js';
import { openStore, type Store } from '../../store/index.js';
import type { AuditEvent, AuditEventInput } from '../../wire/audit.js';

function event(action: string, id: string): AuditEventInput {
  return {
    action,
    result: 'ok',
    actor: { kind: 'cli', user_id: 0, login: '', credential: { type: 'os_user', name: 'ops' } },
    client_ip: '',
    user_agent: '',
    request_id: '',
    object: { type: 'module', id, name: id },
    changes: {},
  };
}

describe('siteward audit tail', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'siteward-audit-tail-'));
  const dataDir = path.join(root, 'data');
  const configFile = path.join(root, 'siteward.config.json');
  let store: Store;

  beforeAll(async () => {
    writeFileSync(configFile, JSON.stringify({ dataDir, homeUrl: 'http://example.org' }));
    store = await openStore({ dataDir, migrations: featureMigrations(builtInFeatures) });
    await store.auditLog.append(['a', 'b', 'c'].map((id) => event('module.activated', id)));
  });
  afterAll(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('prints the last lines and stops without -f', async () => {
    const out: string[] = [];
    const code = await main(['audit', 'tail', '--lines', '2', '--format', 'json', '--config', configFile], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(code).toBe(0);
    expect(out.map((l) => (JSON.parse(l) as AuditEvent).object?.id)).toEqual(['b', 'c']);
  });

  it('exports through the streamed writer when the CLI has one (CSV records end in CRLF)', async () => {
    const chunks: string[] = [];
    const code = await main(['audit', 'export', '--format', 'csv', '--action', 'module.activated', '--config', configFile], {
      out: () => undefined,
      err: (l) => chunks.push(`ERR ${l}`),
      write: (text) => {
        chunks.push(text);
        return Promise.resolve();
      },
    });
    expect(code).toBe(0);
    const records = chunks.join('').split('\r\n');
    expect(records.pop()).toBe('');
    expect(records[0]).toMatch(/^id,time,action,/);
    expect(records.slice(1).map((r) => r.split(',')[2])).toEqual(['module.activated', 'module.activated', 'module.activated']);
  });

  it('follows new events with the filters until stopped, then exits 0', async () => {
    const lines: string[] = [];
    const controller = new AbortController();
    const running = main(
      ['audit', 'tail', '-f', '--lines', '1', '--action', 'module.deactivated', '--interval', '20', '--config', configFile],
      { out: (l) => lines.push(l), err: (l) => lines.push(`ERR ${l}`), signal: controller.signal },
    );
    // Nothing matches yet: no line. Then events land from this other connection.
    await store.auditLog.append([event('module.activated', 'd'), event('module.deactivated', 'e')]);
    await vi.waitFor(() => expect(lines.some((l) => / module\.deactivated .* module:e$/.test(l))).toBe(true), { timeout: 10_000 });
    // A burst of more than one poll's page is followed whole and in order.
    const burst = Array.from({ length: 1200 }, (_, i) => event(i % 2 === 0 ? 'module.deactivated' : 'option.updated', `m${i}`));
    await store.auditLog.append(burst);
    await vi.waitFor(() => expect(lines.filter((l) => l.includes(' module:m')).length).toBe(600), { timeout: 10_000 });
    controller.abort();
    expect(await running).toBe(0);
    expect(lines.some((l) => l.startsWith('ERR') || / module\.activated /.test(l) || l.includes('option.updated'))).toBe(false);
    const ids = lines.map((l) => Number(l.split('  ')[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
