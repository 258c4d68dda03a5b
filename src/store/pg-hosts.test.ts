import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../core/unavailable.js';
import { findHost, fits, parsePgTarget, type HostState, type PgHost } from './pg-hosts.js';

describe('several PostgreSQL hosts in one URL, as libpq takes them', () => {
  it('reads the host list with their ports, the database and the other parameters, and gives each host its own URL', () => {
    const target = parsePgTarget(
      'postgres://app:s%40cret@db1:5432,db2:5433,[::1]/site?sslmode=disable&target_session_attrs=read-write',
      {},
    );
    expect(target.hosts).toEqual([
      { host: 'db1', port: 5432 },
      { host: 'db2', port: 5433 },
      { host: '::1', port: 5432 },
    ]);
    expect(target.attrs).toBe('read-write');
    expect(target.choosing).toBe(true);
    expect(target.urlFor(target.hosts[1]!)).toBe('postgres://app:s%40cret@db2:5433/site?sslmode=disable');
    expect(target.urlFor(target.hosts[2]!)).toBe('postgres://app:s%40cret@[::1]:5432/site?sslmode=disable');
  });

  it('takes PGTARGETSESSIONATTRS when the URL has none, and the URL’s own when both are given', () => {
    expect(parsePgTarget('postgresql://h1,h2/db', { PGTARGETSESSIONATTRS: 'primary' }).attrs).toBe('primary');
    expect(parsePgTarget('postgresql://h1,h2/db?target_session_attrs=prefer-standby', { PGTARGETSESSIONATTRS: 'primary' }).attrs).toBe(
      'prefer-standby',
    );
    expect(parsePgTarget('postgresql://h1,h2/db?port=6000', {}).hosts).toEqual([
      { host: 'h1', port: 6000 },
      { host: 'h2', port: 6000 },
    ]);
  });

  it('uses one host with target_session_attrs=any as given, without choosing (the path of a single database)', () => {
    const target = parsePgTarget('postgres://postgres@127.0.0.1:5432/test', {});
    expect(target.choosing).toBe(false);
    expect(target.attrs).toBe('any');
    expect(parsePgTarget('postgres://postgres@127.0.0.1:5432/test?target_session_attrs=read-write', {}).choosing).toBe(true);
  });

  it('refuses a target_session_attrs libpq does not know, naming the ones it does', () => {
    expect(() => parsePgTarget('postgres://h1,h2/db?target_session_attrs=master', {})).toThrow(
      'target_session_attrs must be one of any, read-write, read-only, primary, standby, prefer-standby (got "master")',
    );
  });

  it('decides what fits each attribute as libpq does', () => {
    const primary: HostState = { standby: false, readOnly: false };
    const fenced: HostState = { standby: false, readOnly: true };
    const standby: HostState = { standby: true, readOnly: true };
    const table = (['any', 'read-write', 'read-only', 'primary', 'standby'] as const).map((attrs) => [
      attrs,
      fits(attrs, primary),
      fits(attrs, fenced),
      fits(attrs, standby),
    ]);
    expect(table).toEqual([
      ['any', true, true, true],
      ['read-write', true, false, false],
      ['read-only', false, true, true],
      ['primary', true, true, false],
      ['standby', false, false, true],
    ]);
  });
});

describe('choosing the host', () => {
  const states = new Map<number, HostState | Error>();
  const probe = (config: { connectionString?: string }): Promise<HostState> => {
    const port = Number(/:(\d+)\//.exec(config.connectionString ?? '')![1]);
    const state = states.get(port);
    return state instanceof Error ? Promise.reject(state) : Promise.resolve(state!);
  };
  const configFor = (target: ReturnType<typeof parsePgTarget>) => (host: PgHost) => ({ connectionString: target.urlFor(host) });

  it('skips a host that is down or a standby and takes the writable one; prefer-standby takes a standby first', async () => {
    states.set(1, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    states.set(2, { standby: true, readOnly: true });
    states.set(3, { standby: false, readOnly: false });
    const rw = parsePgTarget('postgres://u@h:1,h:2,h:3/db?target_session_attrs=read-write', {});
    expect(await findHost(rw, configFor(rw), 1000, probe)).toEqual({ host: 'h', port: 3 });
    const prefer = parsePgTarget('postgres://u@h:3,h:2/db?target_session_attrs=prefer-standby', {});
    expect(await findHost(prefer, configFor(prefer), 1000, probe)).toEqual({ host: 'h', port: 2 });
    states.set(2, Object.assign(new Error('gone'), { code: 'ECONNRESET' }));
    expect(await findHost(prefer, configFor(prefer), 1000, probe)).toEqual({ host: 'h', port: 3 });
  });

  it('says what each host answered when none fits: the store is unavailable (503), not broken', async () => {
    states.set(1, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    states.set(2, { standby: true, readOnly: true });
    const rw = parsePgTarget('postgres://u@h:1,h:2/db?target_session_attrs=read-write', {});
    const error = await findHost(rw, configFor(rw), 1000, probe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('no read-write PostgreSQL host (h:1 ECONNREFUSED; h:2 standby)');
  });
});
