/**
 * Exports of the audit log as NDJSON or CSV (docs/audit-log.md "Export"), shared by
 * `GET siteward/v1/audit/export` and `siteward audit export`. The log is read in keyed pages
 * (id > the last one sent), never with an offset, and only up to the head the export started
 * at: memory stays one page however long the log, and an export of a busy log ends.
 */
import type { AuditFilter, AuditLogRepo } from '../../store/types.js';
import type { AuditEvent } from '../../wire/audit.js';

export type ExportFormat = 'ndjson' | 'csv';

/** Events read per query: large enough that a query's cost is spread, small enough to stay a few hundred kB. */
export const EXPORT_PAGE = 500;

export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

/** The spreadsheet formula prefixes (OWASP "CSV injection"), plus tab and CR that some readers strip first. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field by RFC 4180: quoted when it holds a quote, comma, CR or LF, quotes doubled.
 * A value starting with `= + - @` (or tab, CR) is prefixed with `'` so that a spreadsheet shows
 * it as text instead of running it as a formula; the export is for reading, not a round trip.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const CSV_HEADER = [
  'id',
  'time',
  'action',
  'result',
  'actor_kind',
  'actor_user_id',
  'actor_login',
  'credential',
  'client_ip',
  'user_agent',
  'request_id',
  'object_type',
  'object_id',
  'object_name',
  'host_id',
  'changes',
] as const;

export function csvRow(e: AuditEvent): string {
  return [
    String(e.id),
    new Date(e.time).toISOString(),
    e.action,
    e.result,
    e.actor.kind,
    String(e.actor.user_id),
    e.actor.login,
    JSON.stringify(e.actor.credential),
    e.client_ip,
    e.user_agent,
    e.request_id,
    e.object?.type ?? '',
    e.object?.id ?? '',
    e.object?.name ?? '',
    e.host_id,
    JSON.stringify(e.changes),
  ]
    .map(csvCell)
    .join(',');
}

/**
 * An NDJSON line of a stored row: the stored canonical JSON with the id put first, without a
 * parse and a stringify (the same text `JSON.stringify({id, ...event})` gives).
 */
function ndjsonLine(id: number, data: string): string {
  return data.length > 2 ? `{"id":${id},${data.slice(1)}` : `{"id":${id}}`;
}

/**
 * The export's text, one chunk per page (lines ending in LF for NDJSON, CRLF for CSV as RFC 4180
 * says), the CSV header first. Pulled by the writer, so a slow reader slows the reads.
 */
export async function* exportChunks(
  log: AuditLogRepo,
  filter: AuditFilter,
  format: ExportFormat,
  page = EXPORT_PAGE,
): AsyncGenerator<string> {
  const head = await log.head();
  if (format === 'csv') yield `${CSV_HEADER.join(',')}\r\n`;
  let after = filter.idAfter ?? 0;
  const through = Math.min(filter.idAtMost ?? head.lastId, head.lastId);
  for (;;) {
    const rows = await log.page({ ...filter, idAfter: after, idAtMost: through }, page);
    if (rows.length === 0) return;
    let text = '';
    for (const row of rows)
      text +=
        format === 'ndjson'
          ? `${ndjsonLine(row.id, row.data)}\n`
          : `${csvRow({ id: row.id, ...(JSON.parse(row.data) as Omit<AuditEvent, 'id'>) })}\r\n`;
    yield text;
    if (rows.length < page) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** A file name for the export: `siteward-audit-20261202T061500Z.ndjson`. */
export function exportFileName(format: ExportFormat, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `siteward-audit-${stamp}.${format}`;
}
