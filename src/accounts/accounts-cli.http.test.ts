import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAccountsCommand } from './accounts-cli.js';

function io(stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), stdin: Readable.from([stdin]) } };
}

describe('siteward accounts', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'siteward-accounts-cli-'));
    env = { SITEWARD_ACCOUNTS_DATA: join(dir, 'accounts.sqlite') };
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses user commands on a data file that does not exist, and creates none', async () => {
    const typo = join(dir, 'typo.sqlite');
    for (const args of [
      ['user', 'list', '--data', typo],
      ['user', 'add', 'ann', '--email', 'ann@example.com', '--password', 'xxxxxxxx', '--data', typo],
    ]) {
      const run = io();
      expect(await runAccountsCommand(args, run.io, env)).toBe(1);
      expect(run.err).toEqual([
        `error: no account service data at ${typo}: check the path (--data or SITEWARD_ACCOUNTS_DATA), or create it with "siteward accounts start --data ${typo}"`,
      ]);
    }
    expect(existsSync(typo)).toBe(false);
  });

  it('adds a user with --password-stdin (and one whose e-mail the operator vouches for), refuses a taken login with exit 1, and lists users', async () => {
    // Only `start` creates the data file.
    expect(await runAccountsCommand(['start', '--port', '0'], io().io, env, { stopSignal: async () => undefined })).toBe(0);
    const add = io('correct horse\n');
    expect(
      await runAccountsCommand(['user', 'add', 'ann', '--email', 'ann@example.com', '--name', 'Ann', '--password-stdin'], add.io, env),
    ).toBe(0);
    expect(add.out).toEqual(['Added ann (sub 1).']);
    const again = io();
    expect(await runAccountsCommand(['user', 'add', 'ann', '--email', 'a@example.com', '--password', 'xxxxxxxx'], again.io, env)).toBe(1);
    expect(again.err).toEqual(['error: login "ann" is already taken']);
    expect(
      await runAccountsCommand(
        ['user', 'add', 'cy', '--email', 'cy@example.com', '--email-verified', '--password', 'xxxxxxxx'],
        io().io,
        env,
      ),
    ).toBe(0);
    const list = io();
    expect(await runAccountsCommand(['user', 'list'], list.io, env)).toBe(0);
    expect(list.out).toEqual([
      'ID  LOGIN  EMAIL            VERIFIED  NAME',
      '1   ann    ann@example.com  no        Ann',
      '2   cy     cy@example.com   yes       cy',
    ]);
    const json = io();
    expect(await runAccountsCommand(['user', 'list', '--format', 'json'], json.io, env)).toBe(0);
    expect(JSON.parse(json.out.join('\n'))).toEqual([
      { id: '1', login: 'ann', email: 'ann@example.com', email_verified: false, name: 'Ann' },
      { id: '2', login: 'cy', email: 'cy@example.com', email_verified: true, name: 'cy' },
    ]);
  });

  it('answers a bad command line with one line and exit 2', async () => {
    for (const args of [
      ['user', 'add', 'bob'],
      ['user', 'add', 'bob', '--email', 'b@example.com'],
      ['user', 'list', '--format', 'yaml'],
      ['start', '--port', 'x'],
      ['frobnicate'],
      ['--bogus'],
    ]) {
      const run = io();
      expect(await runAccountsCommand(args, run.io, env)).toBe(2);
      expect(run.err).toHaveLength(1);
    }
  });

  it('starts, prints the URL and the two lines to paste, and stops on the stop signal', async () => {
    const run = io();
    let issuer = '';
    const code = await runAccountsCommand(['start', '--port', '0'], run.io, env, {
      stopSignal: async (service) => {
        issuer = service.issuer;
        expect((await fetch(`${issuer}/.well-known/openid-configuration`)).status).toBe(200);
      },
    });
    expect(code).toBe(0);
    const pasted = run.out.filter((l) => l.startsWith('SITEWARD_ACCOUNTS_'));
    expect(pasted).toEqual([
      `SITEWARD_ACCOUNTS_ISSUER=${issuer}`,
      expect.stringMatching(/^SITEWARD_ACCOUNTS_REGISTRATION_TOKEN=[\w-]{20,}$/),
    ]);
    // The token is persisted: the next start prints the same one.
    const second = io();
    await runAccountsCommand([], second.io, env, { stopSignal: async () => undefined });
    expect(second.out.filter((l) => l.startsWith('SITEWARD_ACCOUNTS_REGISTRATION_TOKEN='))).toEqual([pasted[1]]);
  });
});
