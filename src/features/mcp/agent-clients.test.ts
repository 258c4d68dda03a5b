import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../rest/types.js';
import { listening, testStores } from '../../store/testing/test-stores.js';
import type { Store } from '../../store/types.js';
import { jobSource } from '../audit/index.js';
import { AgentClients, SEEN_EVERY_MS } from './agent-clients.js';

const ann = { id: 7, login: 'ann' } as Principal;

describe.each(testStores())('agent clients on $name', (backend) => {
  let one: Store;
  let other: Store;
  let now = Date.UTC(2026, 11, 2, 6, 0, 0);
  beforeAll(async () => {
    one = await backend.open();
    other = await backend.open();
    await listening(one);
    await listening(other);
  });
  afterAll(() => backend.cleanup());

  it('writes a client’s use at most once a minute per process, keeping its first use', async () => {
    const clients = new AgentClients(one, () => now);
    const first = now;
    await clients.seen('client-a', 'Agent A', ann);
    now += 30_000;
    await clients.seen('client-a', 'Agent A', ann);
    expect(await clients.list()).toEqual([
      {
        client_id: 'client-a',
        client_name: 'Agent A',
        user_id: 7,
        user_login: 'ann',
        first_used: new Date(first).toISOString(),
        last_used: new Date(first).toISOString(),
        revoked: false,
      },
    ]);
    now += SEEN_EVERY_MS;
    await clients.seen('client-a', 'Agent A', ann);
    const [row] = await clients.list();
    expect(row).toMatchObject({ first_used: new Date(first).toISOString(), last_used: new Date(now).toISOString() });
  });

  it('revokes a client for every process sharing the store, and records agent_client.revoked', async () => {
    const here = new AgentClients(one, () => now);
    const there = new AgentClients(other, () => now);
    expect(await there.isRevoked('client-a')).toBe(false);
    const previous = await here.revoke('client-a', jobSource('test'));
    expect(previous).toMatchObject({ client_id: 'client-a', revoked: false });
    // SQLite: at once; PostgreSQL: once the other store hears the options version's NOTIFY (ms).
    await vi.waitFor(async () => expect(await there.isRevoked('client-a')).toBe(true), { timeout: 5000, interval: 5 });
    expect(await here.revoke('no-such-client', jobSource('test'))).toBeUndefined();
    const events = await one.auditLog.list({ action: 'agent_client.revoked' }, { limit: 10, offset: 0 });
    expect(events.map((e) => e.object)).toEqual([{ type: 'agent_client', id: 'client-a', name: 'Agent A' }]);
  });
});
