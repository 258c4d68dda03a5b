import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AccountStore } from './account-store.js';
import { openAccountsDb } from './accounts-db.js';
import { createAccountsService, type AccountsService } from './accounts-service.js';
import { textTable } from '../core/text-table.js';

/** What the command needs from its caller: the `siteward` binary, or a test. */
export interface AccountsCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  stdin: NodeJS.ReadableStream;
}

export interface AccountsCliHooks {
  /** Resolves when the server should stop; default: the first SIGTERM or SIGINT. */
  stopSignal?: (service: AccountsService) => Promise<void>;
}

export const DEFAULT_DATA_FILE = './data/accounts.sqlite';

const USAGE = `Usage:
  siteward accounts [start] [--port P] [--data FILE] [--users FILE.json]
  siteward accounts user add <login> --email E [--email-verified] [--name N] (--password P | --password-stdin) [--data FILE]
  siteward accounts user list [--format table|json] [--data FILE]
The data file defaults to $SITEWARD_ACCOUNTS_DATA, else ${DEFAULT_DATA_FILE}.`;

/** A mistake on the `siteward accounts` command line (exit code 2); the site's commands have their own `UsageError`. */
class AccountsUsageError extends Error {}

/**
 * `siteward accounts …` (args start after `accounts`): runs the local central account service or
 * manages its users. Exit codes: 0 done, 1 refused (e.g. login taken), 2 bad command line.
 * `start` returns only after SIGTERM/SIGINT (or `hooks.stopSignal`).
 *
 * @example
 * process.exitCode = await runAccountsCommand(['user', 'list'], { out: console.log, err: console.error, stdin: process.stdin }, process.env);
 */
export async function runAccountsCommand(
  args: string[],
  io: AccountsCliIo,
  env: Readonly<Record<string, string | undefined>>,
  hooks: AccountsCliHooks = {},
): Promise<number> {
  try {
    if (args[0] === '-h' || args[0] === '--help' || args[0] === 'help') {
      io.out(USAGE);
      return 0;
    }
    if (args[0] === 'user') return await userCommand(args.slice(1), io, env);
    if (args[0] === undefined || args[0] === 'start' || args[0].startsWith('-')) {
      return await start(args[0] === 'start' ? args.slice(1) : args, io, env, hooks);
    }
    throw new AccountsUsageError(`unknown accounts command "${args[0]}"`);
  } catch (error) {
    if (
      error instanceof AccountsUsageError ||
      (error instanceof TypeError && /ERR_PARSE_ARGS/.test(String((error as { code?: unknown }).code)))
    ) {
      io.err(`error: ${error.message}. Run "siteward accounts --help".`);
      return 2;
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function dataFile(given: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  return given ?? (env.SITEWARD_ACCOUNTS_DATA || DEFAULT_DATA_FILE);
}

async function start(
  args: string[],
  io: AccountsCliIo,
  env: Readonly<Record<string, string | undefined>>,
  hooks: AccountsCliHooks,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { port: { type: 'string' }, data: { type: 'string' }, users: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new AccountsUsageError(`unexpected argument "${positionals[0]}"`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new AccountsUsageError(`--port must be a number from 0 to 65535, not "${values.port}"`);

  const service = await createAccountsService({
    dataFile: dataFile(values.data, env),
    port,
    onError: (e) => io.err(`accounts: ${e.message}`),
  });
  try {
    if (values.users !== undefined) {
      const { added, skipped } = await service.importUsers(values.users);
      io.out(`Imported ${added} user(s) from ${values.users} (${skipped} already present).`);
    }
    if (service.listUsers().length === 0)
      io.out('No users yet: add one with "siteward accounts user add <login> --email E --password-stdin".');
    io.out(`Central account service listening on ${service.issuer}`);
    io.out('Paste into the site environment:');
    io.out(`SITEWARD_ACCOUNTS_ISSUER=${service.issuer}`);
    io.out(`SITEWARD_ACCOUNTS_REGISTRATION_TOKEN=${service.initialAccessToken}`);
    await (hooks.stopSignal ?? untilSignal)(service);
    return 0;
  } finally {
    await service.close();
  }
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

async function userCommand(args: string[], io: AccountsCliIo, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      'email-verified': { type: 'boolean' },
      name: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      data: { type: 'string' },
      format: { type: 'string', default: 'table' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (sub === 'list') {
    if (positionals.length > 0) throw new AccountsUsageError('user list takes no arguments');
    if (values.format !== 'table' && values.format !== 'json')
      throw new AccountsUsageError(`unknown format "${values.format}"; use table or json`);
    return withStore(dataFile(values.data, env), async (store) => {
      const accounts = store.list();
      if (values.format === 'json') {
        const rows = accounts.map((a) => ({ id: a.id, login: a.login, email: a.email, email_verified: a.emailVerified, name: a.name }));
        io.out(JSON.stringify(rows));
        return 0;
      }
      const rows = accounts.map((a) => [a.id, a.login, a.email, a.emailVerified ? 'yes' : 'no', a.name]);
      for (const line of textTable(['ID', 'LOGIN', 'EMAIL', 'VERIFIED', 'NAME'], rows)) io.out(line);
      return 0;
    });
  }
  if (sub !== 'add')
    throw new AccountsUsageError(sub === undefined ? 'missing user command (add or list)' : `unknown user command "${sub}"`);
  if (positionals.length !== 1) throw new AccountsUsageError('user add needs exactly one <login>');
  if (values.email === undefined) throw new AccountsUsageError('--email is required');
  if ((values.password === undefined) === (values['password-stdin'] !== true)) {
    throw new AccountsUsageError('give exactly one of --password or --password-stdin');
  }
  const password = values.password ?? (await readStdin(io.stdin));
  const login = positionals[0] ?? '';
  return withStore(dataFile(values.data, env), async (store) => {
    const result = await store.add({
      login,
      email: values.email ?? '',
      name: values.name,
      password,
      emailVerified: values['email-verified'] === true,
    });
    if (!result.ok) {
      io.err(`error: ${result.error.message}`);
      return 1;
    }
    io.out(`Added ${result.account.login} (sub ${result.account.id}).`);
    return 0;
  });
}

/** The user commands work on an existing data file only: a mistyped path must not become a new, empty service. */
async function withStore(file: string, run: (store: AccountStore) => Promise<number>): Promise<number> {
  if (!existsSync(file))
    throw new Error(
      `no account service data at ${file}: check the path (--data or SITEWARD_ACCOUNTS_DATA), or create it with "siteward accounts start --data ${file}"`,
    );
  const db = openAccountsDb(file);
  try {
    return await run(new AccountStore(db, () => Date.now()));
  } finally {
    db.close();
  }
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
