import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppPasswordService } from '../../auth/app-passwords.js';
import { verifyPassword } from '../../auth/passwords.js';
import { checkSetupToken, setupNeeded } from '../../auth/setup-token.js';
import { testStores } from '../../store/testing/test-stores.js';
import type { Store } from '../../store/types.js';
import { runAppPasswordCommand } from './app-password-commands.js';
import { runUserCommand } from './user-commands.js';
import { cellsUnder } from '../../../test/helpers/table-cells.js';

const backend = testStores()[0]; // SQLite, a temp directory of its own

interface Run {
  code: number;
  out: string[];
  err: string[];
}

describe('the user and app-password commands, end to end on SQLite', () => {
  let store: Store;

  beforeAll(async () => {
    store = await backend.open();
  });
  afterAll(() => backend.cleanup());

  async function run(command: typeof runUserCommand, argv: string[], stdin = ''): Promise<Run> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await command(argv, { store, stdin: Readable.from([stdin]), out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err };
  }
  const user = (argv: string[], stdin?: string) => run(runUserCommand, argv, stdin);
  const apps = (argv: string[]) => run(runAppPasswordCommand, argv);

  it('creates a user with a given password', async () => {
    const r = await user(['create', 'alice', '--email', 'alice@example.com', '--role', 'administrator', '--password', 'alice password']);
    expect(r).toMatchObject({ code: 0, err: [] });
    expect(r.out).toEqual([expect.stringMatching(/^Created user alice \(id \d+, administrator\)\.$/)]);
    const stored = await store.users.byLogin('alice');
    expect(await verifyPassword(stored!.passHash, 'alice password')).toBe(true);
  });

  it('creates a user with a password read from stdin', async () => {
    const r = await user(['create', 'bob', '--email', 'bob@example.com', '--role', 'editor', '--password-stdin'], 'Brisk Otter Lamp 47\n');
    expect(r.code).toBe(0);
    expect(await verifyPassword((await store.users.byLogin('bob'))!.passHash, 'Brisk Otter Lamp 47')).toBe(true);
  });

  it('generates and prints a password when none is given', async () => {
    const r = await user(['create', 'carol', '--email', 'carol@example.com', '--role', 'author']);
    expect(r.code).toBe(0);
    const line = r.out.find((l) => l.startsWith('Password: '));
    const password = line!.slice('Password: '.length);
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await verifyPassword((await store.users.byLogin('carol'))!.passHash, password)).toBe(true);
  });

  it.each([
    [
      ['create', 'alice', '--email', 'other@example.com', '--role', 'editor', '--password', 'Brisk Otter Lamp 47'],
      1,
      'error: Sorry, that username already exists!',
    ],
    [
      ['create', 'dan', '--email', 'alice@example.com', '--role', 'editor', '--password', 'Brisk Otter Lamp 47'],
      1,
      'error: Sorry, that email address is already used!',
    ],
    [
      ['create', 'dan', '--email', 'dan@example.com', '--role', 'king', '--password', 'Brisk Otter Lamp 47'],
      1,
      /^error: Unknown role "king"/,
    ],
    [
      ['create', 'dan', '--email', 'dan@example.com', '--role', 'editor', '--password', 'short'],
      1,
      'error: The password must be at least 8 characters long.',
    ],
    [['create', 'dan', '--email', 'dan@example.com', '--role', 'editor', '--password', ''], 1, 'error: Please enter a password.'],
    [['create', 'dan', '--role', 'editor'], 2, /^error: --email is required/],
    [['create', '--email', 'dan@example.com', '--role', 'editor'], 2, /^error: missing <login>/],
    [
      ['create', 'dan', '--email', 'dan@example.com', '--role', 'editor', '--password', 'x', '--password-stdin'],
      2,
      'error: use either --password or --password-stdin, not both',
    ],
    [['create', 'dan', '--mail', 'dan@example.com'], 2, /^error: Unknown option '--mail'/],
    [['frobnicate'], 2, /^error: unknown user command "frobnicate"/],
    [[], 2, /^error: missing user command/],
    [['delete', 'nobody'], 1, 'error: Unknown user "nobody".'],
    [['set-password', 'nobody', '--password', 'Brisk Otter Lamp 47'], 1, 'error: Unknown user "nobody".'],
    // Weak passwords, refused with the reason (the estimator's own words) and no user made.
    [
      ['create', 'dan', '--email', 'dan@example.com', '--role', 'editor', '--password', 'password'],
      1,
      /^error: This password is too easy to guess \(strength 0 of 4; at least 3 is needed\)\. This is a heavily used password\./,
    ],
    [
      ['create', 'dan', '--email', 'dan@example.com', '--role', 'editor', '--password', '12345678'],
      1,
      /^error: This password is too easy to guess \(strength 0 of 4/,
    ],
    [
      ['create', 'dan', '--email', 'dan@example.com', '--role', 'editor', '--password', 'dan@example.com1'],
      1,
      /^error: This password is too easy to guess/,
    ],
    [['set-password', 'alice', '--password', 'password'], 1, /^error: This password is too easy to guess \(strength 0 of 4/],
  ])('user %j exits %i with one clear line', async (argv, code, message) => {
    const r = await user(argv);
    expect(r.code).toBe(code);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  it('lists users as a table and as JSON', async () => {
    const table = await user(['list']);
    expect(table.code).toBe(0);
    // A header row, and each cell under its title (aligned columns, as `backup list` and `app-password list`).
    expect(table.out[0]).toMatch(/^ID {2,}LOGIN {2,}EMAIL {2,}ROLES {2,}REGISTERED$/);
    expect(table.out.slice(1).map((l) => cellsUnder(table.out[0]!, l, ['LOGIN', 'EMAIL', 'ROLES']))).toEqual([
      ['alice', 'alice@example.com', 'administrator'],
      ['bob', 'bob@example.com', 'editor'],
      ['carol', 'carol@example.com', 'author'],
    ]);
    const json = await user(['list', '--format', 'json']);
    expect(JSON.parse(json.out[0])).toEqual(
      expect.arrayContaining([expect.objectContaining({ login: 'bob', roles: ['editor'], email: 'bob@example.com' })]),
    );
  });

  it('sets a password from an option, from stdin, or generated', async () => {
    expect((await user(['set-password', 'bob', '--password', 'new bob password'])).code).toBe(0);
    expect(await verifyPassword((await store.users.byLogin('bob'))!.passHash, 'new bob password')).toBe(true);
    expect((await user(['set-password', 'bob', '--password-stdin'], 'stdin bob password\r\n')).code).toBe(0);
    expect(await verifyPassword((await store.users.byLogin('bob'))!.passHash, 'stdin bob password')).toBe(true);
    const generated = await user(['set-password', 'bob']);
    const password = generated.out.find((l) => l.startsWith('Password: '))!.slice(10);
    expect(await verifyPassword((await store.users.byLogin('bob'))!.passHash, password)).toBe(true);
  });

  it('creates, lists and revokes application passwords, printing the password once', async () => {
    const created = await apps(['create', 'alice', 'deploy script']);
    expect(created.code).toBe(0);
    const password = created.out.find((l) => l.startsWith('Password: '))!.slice(10);
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    const uuid = /uuid ([0-9a-f-]{36})/.exec(created.out[0])![1];
    expect((await createAppPasswordService({ store }).authenticate('alice', password)).ok).toBe(true);

    const listed = await apps(['list', 'alice']);
    expect(listed.out[0]).toMatch(/^UUID {2,}NAME {2,}CREATED {2,}LAST USED$/);
    const [listedUuid, name, time, lastUsed] = cellsUnder(listed.out[0]!, listed.out[1]!, ['UUID', 'NAME', 'CREATED', 'LAST USED']);
    expect([listedUuid, name]).toEqual([uuid, 'deploy script']);
    // Created now, and used once by the authentication above.
    for (const cell of [time, lastUsed]) expect(cell).toMatch(/^\d{4}-\d\d-\d\dT[\d:]{8}Z$/);
    expect(listed.out.join('\n')).not.toContain(password);

    const porcelain = await apps(['create', 'alice', 'ci', '--porcelain']);
    expect(porcelain.out).toEqual([expect.stringMatching(/^[A-Za-z0-9]{24}$/)]);

    const revoked = await apps(['revoke', 'alice', uuid]);
    expect(revoked).toMatchObject({ code: 0, err: [] });
    expect((await createAppPasswordService({ store }).authenticate('alice', password)).ok).toBe(false);
    expect((await apps(['list', 'alice', '--format', 'json'])).out[0]).not.toContain(uuid);
  });

  it.each([
    [['create', 'nobody', 'x'], 1, 'error: Unknown user "nobody".'],
    [['create', 'alice', 'ci'], 1, 'error: Each application name should be unique.'],
    [['create', 'alice'], 2, /^error: missing <name>/],
    [['list', 'nobody'], 1, 'error: Unknown user "nobody".'],
    [['revoke', 'alice', 'not-a-uuid'], 1, 'error: alice has no application password not-a-uuid.'],
    [['revoke', 'nobody', 'x'], 1, 'error: Unknown user "nobody".'],
    [['oops'], 2, /^error: unknown app-password command "oops"/],
  ])('app-password %j exits %i with one clear line', async (argv, code, message) => {
    const r = await apps(argv);
    expect(r.code).toBe(code);
    expect(r.err).toEqual([typeof message === 'string' ? message : expect.stringMatching(message)]);
  });

  it('deletes a user with their application passwords', async () => {
    // alice is the only administrator here, hence --force.
    const r = await user(['delete', 'alice', '--force']);
    expect(r.out[0]).toMatch(/^Deleted user alice \(id \d+\)\.$/);
    expect(await store.users.byLogin('alice')).toBeUndefined();
    expect((await apps(['list', 'alice'])).code).toBe(1);
  });
});

describe('deleting the last administrator', () => {
  const own = testStores()[0];
  let store: Store;
  beforeAll(async () => {
    store = await own.open();
  });
  afterAll(() => own.cleanup());

  async function user(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runUserCommand(argv, {
      store,
      stdin: Readable.from(['']),
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      homeUrl: 'http://example.org',
    });
    return { code, out, err };
  }

  it('is refused without --force, with one line saying why and what to do', async () => {
    await user(['create', 'boss', '--email', 'boss@example.com', '--role', 'administrator', '--password', 'Boss Heron Violet 58']);
    const r = await user(['delete', 'boss']);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([expect.stringMatching(/^error: boss is the last administrator; .*--force/)]);
    expect(await store.users.byLogin('boss')).toBeDefined();
  });

  it('is allowed while another administrator remains', async () => {
    await user(['create', 'deputy', '--email', 'deputy@example.com', '--role', 'administrator', '--password', 'Deputy Lichen Tram 61']);
    const r = await user(['delete', 'deputy']);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
  });

  it('with --force deletes it and reopens setup at once with a new link', async () => {
    const r = await user(['delete', 'boss', '--force']);
    expect(r.code).toBe(0);
    const link = r.out.find((l) => l.includes('/setup?token='));
    expect(link).toMatch(
      /^No administrator is left\. Create one: open \/setup\?token=[\w-]+ on the server's address \(no server runs on this data directory now; started with these settings that is http:\/\/example\.org\/setup\?token=[\w-]+\)\.$/,
    );
    const token = /token=([\w-]+)/.exec(link!)![1]!;
    expect(await checkSetupToken(store, token)).toBe(true);
    expect(await setupNeeded(store)).toBe(true);
  });
});
