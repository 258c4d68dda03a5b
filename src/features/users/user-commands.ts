import { textTable } from '../../core/text-table.js';
import { ensureSetupToken } from '../../auth/setup-token.js';
import { newPasswordProblem } from '../../auth/password-strength.js';
import { createUserService } from '../../auth/user-service.js';
import {
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
  formatTime,
  generatePassword,
  runSubcommand,
  parse,
  passwordOption,
  positionals,
} from '../../core/cli-args.js';
import type { CliContext } from './cli-context.js';
import { cliSource, passwordSetEvents } from '../audit/index.js';

const USAGE = {
  create: 'user create <login> --email <e> --role <role> [--display-name <name>] [--password <p> | --password-stdin]',
  list: 'user list [--format table|json]',
  'set-password': 'user set-password <login> [--password <p> | --password-stdin]',
  delete: 'user delete <login> [--force]',
  '2fa': 'user 2fa reset <login>',
} as const;

/**
 * `siteward user …` (argv starts after `user`). Without a password option, `create` and
 * `set-password` generate one and print it. Returns the exit code.
 *
 * @example
 * await runUserCommand(['create', 'ann', '--email', 'ann@example.com', '--role', 'editor'], ctx);
 */
export function runUserCommand(argv: string[], ctx: CliContext): Promise<number> {
  return runSubcommand('user', USAGE, { create, list, 'set-password': setPassword, delete: remove, '2fa': twoFactor }, argv, ctx);
}

async function create(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals: rest } = parse(args, {
    email: { type: 'string' },
    role: { type: 'string' },
    'display-name': { type: 'string' },
    password: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  });
  const [login] = positionals(rest, ['login'], USAGE.create);
  if (values.email === undefined) throw new UsageError(`--email is required; usage: ${USAGE.create}`);
  if (values.role === undefined) throw new UsageError(`--role is required; usage: ${USAGE.create}`);
  const given = await passwordOption(values, ctx.stdin);
  const password = given ?? generatePassword();
  const weak = given === null ? null : await newPasswordProblem(given, [login, values.email]);
  if (weak) {
    ctx.err(`error: ${weak.message}`);
    return EXIT_FAILED;
  }

  const result = await createUserService(ctx.store).create({
    login,
    email: values.email,
    role: values.role,
    password,
    displayName: values['display-name'],
  });
  if (!result.ok) {
    ctx.err(`error: ${result.error.message}`);
    return EXIT_FAILED;
  }
  const { user, roles } = result.value;
  ctx.out(`Created user ${user.login} (id ${user.id}, ${roles.join(', ')}).`);
  if (given === null) ctx.out(`Password: ${password}`);
  return EXIT_OK;
}

async function list(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals: rest } = parse(args, { format: { type: 'string', default: 'table' } });
  positionals(rest, [], USAGE.list);
  const users = await createUserService(ctx.store).list();
  if (values.format === 'json') {
    const rows = users.map(({ user, roles }) => ({
      id: user.id,
      login: user.login,
      email: user.email,
      display_name: user.displayName,
      roles,
      registered: formatTime(user.registered),
    }));
    ctx.out(JSON.stringify(rows));
    return EXIT_OK;
  }
  if (values.format !== 'table') throw new UsageError(`unknown format "${values.format}"; use table or json`);
  const rows = users.map(({ user, roles }) => [
    String(user.id),
    user.login,
    user.email,
    roles.join(',') || '-',
    formatTime(user.registered),
  ]);
  for (const line of textTable(['ID', 'LOGIN', 'EMAIL', 'ROLES', 'REGISTERED'], rows)) ctx.out(line);
  return EXIT_OK;
}

async function setPassword(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals: rest } = parse(args, {
    password: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  });
  const [login] = positionals(rest, ['login'], USAGE['set-password']);
  const given = await passwordOption(values, ctx.stdin);
  const password = given ?? generatePassword();
  const user = given === null ? undefined : await ctx.store.users.byLogin(login);
  const weak = given === null ? null : await newPasswordProblem(given, [login, user?.email ?? '']);
  if (weak) {
    ctx.err(`error: ${weak.message}`);
    return EXIT_FAILED;
  }
  const result = await createUserService(ctx.store).setPassword(login, password, passwordSetEvents(cliSource(), 'user.password_changed'));
  if (!result.ok) {
    ctx.err(`error: ${result.error.message}`);
    return EXIT_FAILED;
  }
  ctx.out(`Changed the password of ${result.value.login}; their sessions were ended.`);
  if (given === null) ctx.out(`Password: ${password}`);
  return EXIT_OK;
}

async function remove(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals: rest } = parse(args, { force: { type: 'boolean' } });
  const [login] = positionals(rest, ['login'], USAGE.delete);
  const { store } = ctx;
  const target = await store.users.byLogin(login);
  // Without an administrator nobody can manage the site: never by accident.
  if (
    target &&
    values.force !== true &&
    (await store.users.roles(target.id)).includes('administrator') &&
    (await store.users.countByRole('administrator')) <= 1
  ) {
    ctx.err(
      `error: ${target.login} is the last administrator; create another one first, or add --force (setup then reopens with a new link).`,
    );
    return EXIT_FAILED;
  }
  const result = await createUserService(store).delete(login);
  if (!result.ok) {
    ctx.err(`error: ${result.error.message}`);
    return EXIT_FAILED;
  }
  ctx.out(`Deleted user ${result.value.login} (id ${result.value.id}).`);
  // The running server reads the token from the store: /setup is open again at once.
  const token = await ensureSetupToken(store);
  if (token) {
    // The link must be the running server's: this command's settings may name another port or host.
    const running = (await ctx.runningServerUrl?.()) ?? null;
    const link = `/setup?token=${token}`;
    if (running !== null) ctx.out(`No administrator is left. Create one: ${running}${link}`);
    else
      ctx.out(
        `No administrator is left. Create one: open ${link} on the server's address (no server runs on this data directory now; started with these settings that is ${ctx.homeUrl ?? ''}${link}).`,
      );
  }
  return EXIT_OK;
}

/** `user 2fa reset <login>`: for a user who lost their device and their recovery codes. */
async function twoFactor(args: string[], ctx: CliContext): Promise<number> {
  const { positionals: rest } = parse(args, {});
  const [action, login] = positionals(rest, ['action', 'login'], USAGE['2fa']);
  if (action !== 'reset') throw new UsageError(`unknown 2fa command "${action}"; usage: ${USAGE['2fa']}`);
  const user = await ctx.store.users.byLogin(login);
  if (!user) {
    ctx.err(`error: no user ${login}`);
    return EXIT_FAILED;
  }
  if (!ctx.resetTwoFactor) throw new Error('two-factor is not available to this command');
  const was = await ctx.resetTwoFactor(user.id);
  ctx.out(
    was
      ? `Two-factor authentication of ${user.login} is off; they log in with their password alone and can enrol again.`
      : `${user.login} had no two-factor authentication; nothing changed.`,
  );
  return EXIT_OK;
}
