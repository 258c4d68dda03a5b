import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './settings.js';
import { PluginLoadError } from './plugins/plugin-loader.js';
import { argsErrorMessage } from './core/cli-args.js';
import { createApp } from './compose.js';
import { formatRouteTable, type RouteRow } from './core/route-table.js';
import type { CliIo, Feature } from './features/contract.js';
import { SITEWARD_VERSION } from './core/version.js';

const HELP = `Usage: siteward <command> [options]
       siteward --version

Commands:
  start [--workers N|auto] [--port P] [--host H] [--quiet] [--config FILE]
        Run the server (default http://127.0.0.1:8080). Prints a one-time /setup link
        while no administrator exists.
  user create <login> --email <e> --role <role> [--display-name <name>] [--password <p> | --password-stdin]
        Without a password option, generates one and prints it once.
  user list [--format table|json]
  user set-password <login> [--password <p> | --password-stdin]
        Without a password option, generates one and prints it once. Ends the user's sessions.
  user delete <login> [--force]
        The last administrator only with --force; setup then reopens with a new link.
  user 2fa reset <login>
        Turns off the two-factor authentication of a user who lost their device and recovery codes.
  app-password create <login> <name> [--porcelain]
        Prints a new application password once (--porcelain: only the password).
  app-password list <login> [--format table|json]
  app-password revoke <login> <uuid>
  accounts [start] [--port P] [--data FILE] [--users FILE.json]
        Run the local central account service (an OpenID Connect provider on
        127.0.0.1, for development and tests); prints the settings to paste
  accounts user add <login> --email E [--email-verified] [--name N] (--password P | --password-stdin) [--data FILE]
  accounts user list [--format table|json] [--data FILE]
                                   Accounts of the local account service
  backup now                       Back up the store now (to every target); prints the new backup's id
  backup list [--format json] [--all-stores]
                                   Backups per target with id, time, size, status, backend, store and verification
  backup verify <id> [--target local|s3] [--from-store <store id>]
                                   Check the checksum and restore it into a temporary store
  backup restore <id> [--target local|s3] [--from-store <store id>]
                                   Replace the store with the backup (stop the server first)
  backup prune [--dry-run]         Apply retention to each target now (--dry-run: only show what would go)
  backup clean-kept [--dry-run]    Remove the stores restores replaced and kept (SQLite files, PostgreSQL schemas)
  monitor status                   Each check: state, uptime over 24h/7d/30d/365d, certificate
  monitor maintenance list | remove <id>
  monitor maintenance add once --starts <ISO time> --ends <ISO time> [--note <text>]
  monitor maintenance add weekly --days <0-6,…> --time <HH:MM> --duration <minutes> [--note <text>]
  monitor maintenance add cron --cron "<m h dom mon dow>" --duration <minutes> [--note <text>]
  monitor test-notification        Sends a test e-mail/webhook to the current recipients; says when real alerts are off
  audit list [filters] [--limit N] [--offset N] [--format json]
                                   Audit events, newest first
  audit show <id>                  One audit event in full (JSON)
  audit verify                     Recompute the hash chain and the signed checkpoints; exit 1 naming the first broken row
  audit tail [-f] [filters] [--lines N] [--interval MS] [--format json]
                                   The last N events, then with -f each new one as written (Ctrl-C ends)
  audit export --format ndjson|csv [filters]
                                   Every matching event, oldest first, streamed
        filters: --action <name|prefix.*> --actor <user id> --object <type[:id]> --result ok|denied|failed
                 --after <ISO time> --before <ISO time> --search <text>
  protect list [--all]             Blocked addresses (--all: recent ones too)
  protect unblock <address> | --all
                                   Lifts one block (an IPv4 address or an IPv6 /64) or every block
  routes [--format table|json]     Every REST route, page and asset mount: method, path, owner
                                   (feature or plugin), permission check, batchable
  openapi                          The OpenAPI 3.1 document of every REST route (plugins' too),
                                   e.g. siteward openapi > api.json (the same as GET /wp-json/?_openapi=3.1)

Settings come from siteward.config.json and environment variables (see README.md).
Options:
  -h, --help      Show this help
  --config FILE   Read settings from FILE instead of ./siteward.config.json
`;

function config(overrides: Record<string, unknown>, configFile: string | undefined): Config {
  return loadConfig({ overrides, configFile });
}

/** `siteward routes`: the table the running configuration serves (docs/routes.md is the default configuration's). */
function printRoutes(
  rows: readonly RouteRow[],
  args: readonly string[],
  io: { out: (l: string) => void; err: (l: string) => void },
): number {
  const { values } = parseArgs({ args: [...args], options: { format: { type: 'string', default: 'table' } }, strict: true });
  if (values.format === 'json') io.out(JSON.stringify(rows, null, 2));
  else if (values.format === 'table') for (const line of formatRouteTable(rows)) io.out(line);
  else {
    io.err(`siteward routes: unknown format "${values.format}"; use table or json. Run "siteward --help".`);
    return 2;
  }
  return 0;
}

/** Standard output with backpressure: resolved once the stream took `text` (or failed: a closed pipe ends the command). */
function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

/** Entry point of the `siteward` command; returns the exit code (a running server never returns early). */
export async function main(
  argv: string[],
  io: Pick<CliIo, 'out' | 'err' | 'write' | 'signal'> = { out: (l) => console.log(l), err: (l) => console.error(l), write: writeStdout },
  options: { features?: readonly Feature[] } = {},
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-V' || command === 'version') {
    io.out(`siteward ${SITEWARD_VERSION}`);
    return 0;
  }
  if (!command || command === '-h' || command === '--help' || command === 'help') {
    io.out(HELP);
    return command ? 0 : 1;
  }
  try {
    if (command === 'start') {
      const { values } = parseArgs({
        args: rest,
        options: {
          workers: { type: 'string' },
          port: { type: 'string' },
          host: { type: 'string' },
          quiet: { type: 'boolean', short: 'q' },
          config: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
      });
      if (values.help) {
        io.out(HELP);
        return 0;
      }
      const overrides: Record<string, unknown> = {};
      if (values.workers !== undefined) overrides.workers = values.workers;
      if (values.port !== undefined) {
        // Named as the option that was typed, not as the PORT setting it overrides.
        if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535)
          throw new ConfigError(`--port must be an integer from 0 to 65535 (got "${values.port}")`);
        overrides.port = values.port;
      }
      if (values.host !== undefined) overrides.host = values.host;
      const { startServer } = await import('./cluster.js');
      await startServer(config(overrides, values.config), { quiet: values.quiet === true, out: io.out });
      return 0;
    }
    // The account service is its own program with its own data file: it never opens the site's store.
    // Loaded only for the commands that run them (the OpenID provider alone is ~40 MB of RSS):
    // every other command keeps its footprint small (docs/performance.md, backup memory).
    if (command === 'accounts') {
      const { runAccountsCommand } = await import('./accounts/index.js');
      return await runAccountsCommand(rest, { ...io, stdin: process.stdin }, process.env);
    }
    const configIndex = rest.indexOf('--config');
    const configFile = configIndex === -1 ? undefined : rest[configIndex + 1];
    const args = configIndex === -1 ? rest : rest.filter((_, i) => i !== configIndex && i !== configIndex + 1);
    const app = await createApp(config({}, configFile), { logger: false, startJobs: false, features: options.features });
    try {
      if (command === 'routes') return printRoutes(app.routes(), args, io);
      if (command === 'openapi') {
        parseArgs({ args: [...args], options: {}, strict: true });
        io.out(JSON.stringify(await app.rest.openApi(), null, 2));
        return 0;
      }
      const found = app.commands.find((c) => c.name === command);
      if (found) return await found.run(args, { ...io, stdin: process.stdin });
    } finally {
      await app.close();
    }
    io.err(`Unknown command "${command}". Run "siteward --help".`);
    return 2;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PluginLoadError) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof TypeError && 'code' in error && String((error as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      io.err(`${argsErrorMessage(error)}. Run "siteward --help".`);
      return 2;
    }
    throw error;
  }
}
