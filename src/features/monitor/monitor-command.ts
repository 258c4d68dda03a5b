/** `siteward monitor …`: the monitor's state, maintenance windows and a test notification from the shell. */
import { cliSource } from '../audit/index.js';
import { EXIT_FAILED, EXIT_OK, UsageError, guarded, parse, positionals } from '../../core/cli-args.js';
import type { CliCommand, CliIo } from '../contract.js';
import { textTable } from '../../core/text-table.js';
import { monitorError } from './monitor-errors.js';
import type { CheckStatus, MonitorService, Outcome } from './monitor-service.js';
import { windowJson } from './monitor-service.js';
import type { MaintenanceWindow } from './maintenance.js';

const USAGE = [
  'monitor status                      Each check: state, uptime over 24h/7d/30d/365d, certificate',
  'monitor maintenance list',
  'monitor maintenance add once --starts <ISO time> --ends <ISO time> [--note <text>]',
  'monitor maintenance add weekly --days <0-6,…> --time <HH:MM> --duration <minutes> [--note <text>]',
  'monitor maintenance add cron --cron "<m h dom mon dow>" --duration <minutes> [--note <text>]',
  'monitor maintenance remove <id>',
  'monitor test-notification           Sends a test e-mail/webhook to the current recipients; says when real alerts are off',
];

function describeWindow(window: MaintenanceWindow): string {
  const json = windowJson(window);
  switch (json.kind) {
    case 'once':
      return `${json.id}\tonce\t${json.starts} .. ${json.ends}\t${json.note}`;
    case 'weekly':
      return `${json.id}\tweekly\tdays ${json.days.join(',')} at ${json.time} for ${json.durationMinutes} min\t${json.note}`;
    case 'cron':
      return `${json.id}\tcron\t"${json.cron}" for ${json.durationMinutes} min\t${json.note}`;
  }
}

function percent(value: number | null): string {
  return value === null ? '-' : `${value}%`;
}

const STATUS_HEADER = ['ID', 'URL', 'STATE', '24H', '7D', '30D', '365D', 'CERTIFICATE'];

function checkRow(check: CheckStatus): string[] {
  const state =
    check.state !== 'down'
      ? check.state
      : check.maintenance
        ? `down (maintenance)${check.lastError === null ? '' : ` (${check.lastError})`}`
        : `down since ${check.downSince ?? '?'} (${check.lastError ?? ''})`;
  const certificate = check.certificate === null ? '-' : `until ${check.certificate.validTo} (${check.certificate.daysLeft} days)`;
  return [
    String(check.id),
    check.url,
    state,
    percent(check.uptime['24h']),
    percent(check.uptime['7d']),
    percent(check.uptime['30d']),
    percent(check.uptime['365d']),
    certificate,
  ];
}

/** Prints an operation's refusal (the REST error's message and detail) and returns exit code 1. */
function refused(io: CliIo, outcome: Extract<Outcome<unknown>, { ok: false }>): number {
  const error = monitorError(outcome.error, outcome.detail);
  io.err(`error: ${error.message}${outcome.detail === undefined ? '' : ` (${outcome.detail})`}`);
  return EXIT_FAILED;
}

export function monitorCommand(service: MonitorService): CliCommand {
  const run = async (args: string[], io: CliIo): Promise<number> => {
    const [sub, ...rest] = args;
    if (sub === 'status') {
      positionals(parse(rest, {}).positionals, [], USAGE[0] ?? '');
      const overview = await service.overview();
      io.out(`monitor module: ${overview.active === true ? 'active' : 'inactive'}`);
      for (const line of textTable(STATUS_HEADER, overview.checks.map(checkRow), { right: [3, 4, 5, 6] })) io.out(line);
      const current = overview.maintenance.current;
      if (current !== null) io.out(`maintenance until ${current.until}`);
      return EXIT_OK;
    }
    if (sub === 'test-notification') {
      const outcome = await service.sendTest();
      if (!outcome.ok) return refused(io, outcome);
      const { results, note } = outcome.value;
      for (const result of results) io.out(`${result.channel}: ${result.ok ? 'sent' : `failed (${result.error})`}`);
      if (note !== undefined) io.err(`note: ${note}`);
      return results.every((r) => r.ok) ? EXIT_OK : EXIT_FAILED;
    }
    if (sub !== 'maintenance')
      throw new UsageError(
        `${sub === undefined ? 'missing' : 'unknown'} monitor command; use one of: status | maintenance | test-notification`,
      );
    const [action, ...more] = rest;
    if (action === 'list') {
      for (const window of await service.windows()) io.out(describeWindow(window));
      return EXIT_OK;
    }
    if (action === 'remove') {
      const [id] = positionals(parse(more, {}).positionals, ['id'], 'monitor maintenance remove <id>');
      const outcome = await service.removeWindow(Number(id), cliSource());
      if (!outcome.ok) return refused(io, outcome);
      io.out(`removed maintenance window ${id}`);
      return EXIT_OK;
    }
    if (action === 'add') {
      const { values, positionals: kinds } = parse(more, {
        starts: { type: 'string' },
        ends: { type: 'string' },
        days: { type: 'string' },
        time: { type: 'string' },
        cron: { type: 'string' },
        duration: { type: 'string' },
        note: { type: 'string' },
      });
      const [kind] = positionals(kinds, ['once|weekly|cron'], 'monitor maintenance add <once|weekly|cron> …');
      const outcome = await service.addWindow(
        {
          kind,
          starts: values.starts,
          ends: values.ends,
          days: values.days?.split(',').map((d) => Number(d.trim())),
          time: values.time,
          cron: values.cron,
          durationMinutes: values.duration === undefined ? undefined : Number(values.duration),
          note: values.note ?? '',
        },
        cliSource(),
      );
      if (!outcome.ok) return refused(io, outcome);
      io.out(`added maintenance window ${describeWindow(outcome.value)}`);
      return EXIT_OK;
    }
    throw new UsageError('use monitor maintenance list | add | remove');
  };
  return {
    name: 'monitor',
    usage: USAGE,
    run: (args, io) => guarded(io, () => run(args, io)),
  };
}
