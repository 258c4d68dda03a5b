/** `siteward protect …`: the blocks in force (or recent ones) and lifting them from the shell, e.g. for a locked-out administrator. */
import { EXIT_FAILED, EXIT_OK, UsageError, guarded, parse, positionals } from '../../core/cli-args.js';
import type { CliCommand, CliIo } from '../contract.js';
import type { BlockView } from './protect-blocks.js';
import { textTable } from '../../core/text-table.js';
import type { ProtectService } from './protect-service.js';
import { cliSource } from '../audit/index.js';

const USAGE = [
  'protect list [--all]                Blocked addresses (--all: recent ones too), a table: address, state, failures, refused attempts, first and last attempt, usernames tried',
  'protect unblock <address>           Lifts the block of an IPv4 address or an IPv6 /64, on every worker and host at once',
  'protect unblock --all               Lifts every block',
];

const iso = (ms: number): string => new Date(ms).toISOString();

const HEADER = ['ADDRESS', 'STATE', 'FAILURES', 'REFUSED', 'FIRST', 'LAST', 'USERNAMES'] as const;

/** One block as a row of the table (the CLI's shared style: a header row, aligned columns). */
function row(block: BlockView): string[] {
  const state = block.active
    ? `blocked until ${iso(block.blockedUntil)}`
    : block.liftedAt !== null
      ? `lifted ${iso(block.liftedAt)} by ${block.liftedBy ?? '?'}`
      : `ended ${iso(block.blockedUntil)}`;
  const level = block.level === 2 ? ' (escalated)' : '';
  return [
    block.address,
    `${state}${level}`,
    String(block.failures),
    String(block.blockedAttempts),
    iso(block.firstAttempt),
    iso(block.lastAttempt),
    block.usernames.join(', ') || '-',
  ];
}

export function protectCommand(service: ProtectService): CliCommand {
  const run = async (args: string[], io: CliIo): Promise<number> => {
    const [sub, ...rest] = args;
    if (sub === 'list') {
      const { values, positionals: extra } = parse(rest, { all: { type: 'boolean' } });
      positionals(extra, [], 'protect list [--all]');
      const rows: string[][] = [];
      for (let page = 1; ; page += 1) {
        const found = await service.blocksPage(page, 100, values.all !== true);
        for (const block of found.items) rows.push(row(block));
        if (rows.length >= found.total || found.items.length === 0) break;
      }
      if (rows.length === 0) io.out(values.all === true ? 'no blocks recorded' : 'no address is blocked');
      else for (const line of textTable(HEADER, rows, { right: [2, 3] })) io.out(line);
      return EXIT_OK;
    }
    if (sub === 'unblock') {
      const { values, positionals: given } = parse(rest, { all: { type: 'boolean' } });
      if (values.all === true) {
        positionals(given, [], 'protect unblock --all');
        const lifted = await service.unblockAll('cli', cliSource());
        io.out(lifted.length === 0 ? 'no address was blocked' : `unblocked ${lifted.join(', ')}`);
        return EXIT_OK;
      }
      const [address] = positionals(given, ['address'], 'protect unblock <address> | --all');
      const outcome = await service.unblock(address ?? '', 'cli', cliSource());
      if (!outcome.ok) {
        io.err(`error: ${outcome.error.message}`);
        return EXIT_FAILED;
      }
      io.out(`unblocked ${outcome.value.address}`);
      return EXIT_OK;
    }
    throw new UsageError(`${sub === undefined ? 'missing' : 'unknown'} protect command; use one of: list | unblock`);
  };
  return {
    name: 'protect',
    usage: USAGE,
    run: (args, io) => guarded(io, () => run(args, io)),
  };
}
