import { textTable } from '../../core/text-table.js';
import { createAppPasswordService } from '../../auth/app-passwords.js';
import { EXIT_FAILED, EXIT_OK, UsageError, formatTime, parse, positionals, runSubcommand } from '../../core/cli-args.js';
import type { CliContext } from './cli-context.js';
import { cliSource } from '../audit/index.js';

const USAGE = {
  create: 'app-password create <login> <name> [--porcelain]',
  list: 'app-password list <login> [--format table|json]',
  revoke: 'app-password revoke <login> <uuid>',
} as const;

/**
 * `siteward app-password …` (argv starts after `app-password`). `create` prints the new
 * password once (with `--porcelain`, only the password). Returns the exit code.
 *
 * @example
 * await runAppPasswordCommand(['create', 'admin', 'deploy script'], ctx);
 */
export function runAppPasswordCommand(argv: string[], ctx: CliContext): Promise<number> {
  return runSubcommand('app-password', USAGE, { create, list, revoke }, argv, ctx);
}

async function create(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals: rest } = parse(args, { porcelain: { type: 'boolean' } });
  const [login, name] = positionals(rest, ['login', 'name'], USAGE.create);
  const result = await createAppPasswordService({ store: ctx.store }).create(login, name, { source: cliSource() });
  if (!result.ok) {
    ctx.err(`error: ${result.message}`);
    return EXIT_FAILED;
  }
  if (values.porcelain) {
    ctx.out(result.password);
    return EXIT_OK;
  }
  ctx.out(`Created application password "${result.info.name}" for ${login} (uuid ${result.info.uuid}).`);
  ctx.out(`Password: ${result.password}`);
  ctx.out('It is shown only now; use it as the password of HTTP Basic authentication.');
  return EXIT_OK;
}

async function list(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals: rest } = parse(args, { format: { type: 'string', default: 'table' } });
  const [login] = positionals(rest, ['login'], USAGE.list);
  if (values.format !== 'table' && values.format !== 'json') {
    throw new UsageError(`unknown format "${values.format}"; use table or json`);
  }
  const passwords = await createAppPasswordService({ store: ctx.store }).list(login);
  if (passwords === null) {
    ctx.err(`error: Unknown user "${login}".`);
    return EXIT_FAILED;
  }
  if (values.format === 'json') {
    const rows = passwords.map((p) => ({
      uuid: p.uuid,
      name: p.name,
      created: formatTime(p.created),
      last_used: p.lastUsed && formatTime(p.lastUsed),
    }));
    ctx.out(JSON.stringify(rows));
    return EXIT_OK;
  }
  const rows = passwords.map((p) => [p.uuid, p.name, formatTime(p.created), formatTime(p.lastUsed)]);
  for (const line of textTable(['UUID', 'NAME', 'CREATED', 'LAST USED'], rows)) ctx.out(line);
  return EXIT_OK;
}

async function revoke(args: string[], ctx: CliContext): Promise<number> {
  const { positionals: rest } = parse(args, {});
  const [login, uuid] = positionals(rest, ['login', 'uuid'], USAGE.revoke);
  const passwords = await createAppPasswordService({ store: ctx.store }).list(login);
  if (passwords === null) {
    ctx.err(`error: Unknown user "${login}".`);
    return EXIT_FAILED;
  }
  const removed = await createAppPasswordService({ store: ctx.store }).revoke(login, uuid, cliSource());
  if (!removed) {
    ctx.err(`error: ${login} has no application password ${uuid}.`);
    return EXIT_FAILED;
  }
  ctx.out(`Revoked application password ${uuid} of ${login}.`);
  return EXIT_OK;
}
