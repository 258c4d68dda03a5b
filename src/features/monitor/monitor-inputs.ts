/**
 * Reading what operators send (REST bodies, CLI flags) into checks, maintenance windows and
 * notification settings: one parser each, so the admin page, REST and the CLI refuse the same things.
 */
import { parseExpectedStatus } from './expected-status.js';
import { maintenanceProblem, type MaintenanceInput } from './maintenance.js';
import type { CheckInput } from './monitor-store.js';
import { longerThan } from '../../core/text-limits.js';

/** Sizes of what an operator may store (REST and CLI): each well above any real use, none unbounded. */
export const MONITOR_LIMITS = Object.freeze({
  url: 2048,
  keyword: 1000,
  expectedStatus: 200,
  cron: 200,
  note: 200,
  email: 100,
  emails: 20,
  administrators: 100,
  windows: 50,
});

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const fail = (problem: string): Parsed<never> => ({ ok: false, problem });

function optionalText(body: Readonly<Record<string, unknown>>, key: string): string | null | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  return typeof value === 'string' ? value : undefined;
}

/** A check from `body`, over `current` (an update) or the defaults. `site`: check 1, whose URL may stay null. */
export function parseCheck(body: Readonly<Record<string, unknown>>, current: CheckInput | null, site: boolean): Parsed<CheckInput> {
  const base: CheckInput = current ?? { url: null, expectedStatus: '', keyword: null, keywordAbsent: false, slowMs: null };
  const url = 'url' in body ? optionalText(body, 'url') : base.url;
  if (url === undefined) return fail('url must be a string');
  if (url === null && !site) return fail('url is required');
  if (url !== null && longerThan(url, MONITOR_LIMITS.url)) return fail(`url must be at most ${MONITOR_LIMITS.url} characters long`);
  if (url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return fail('url must be an absolute http(s) URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return fail('url must be an absolute http(s) URL');
  }
  const expectedStatus = 'expectedStatus' in body ? body.expectedStatus : base.expectedStatus;
  if (typeof expectedStatus === 'string' && longerThan(expectedStatus, MONITOR_LIMITS.expectedStatus))
    return fail(`expectedStatus must be at most ${MONITOR_LIMITS.expectedStatus} characters long`);
  if (typeof expectedStatus !== 'string' || parseExpectedStatus(expectedStatus) === null)
    return fail('expectedStatus must be statuses, classes or ranges like "200", "2xx", "200-299", comma-separated');
  const keyword = 'keyword' in body ? optionalText(body, 'keyword') : base.keyword;
  if (keyword === undefined) return fail('keyword must be a string');
  if (keyword !== null && longerThan(keyword, MONITOR_LIMITS.keyword))
    return fail(`keyword must be at most ${MONITOR_LIMITS.keyword} characters long`);
  const keywordAbsent = 'keywordAbsent' in body ? body.keywordAbsent : base.keywordAbsent;
  if (typeof keywordAbsent !== 'boolean') return fail('keywordAbsent must be true or false');
  const slowMs = 'slowMs' in body ? body.slowMs : base.slowMs;
  if (slowMs !== null && (typeof slowMs !== 'number' || !Number.isInteger(slowMs) || slowMs < 1 || slowMs > 600_000))
    return fail('slowMs must be null or whole milliseconds from 1 to 600000');
  return { ok: true, value: { url, expectedStatus: expectedStatus.trim(), keyword, keywordAbsent, slowMs } };
}

function time(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/** A maintenance window from `body`: `{kind:"once", starts, ends}` (ISO 8601), `{kind:"weekly", days, time, durationMinutes}` or `{kind:"cron", cron, durationMinutes}`. */
export function parseMaintenance(body: Readonly<Record<string, unknown>>, timeZone: string): Parsed<MaintenanceInput> {
  const note = body.note === undefined ? '' : body.note;
  if (typeof note !== 'string' || longerThan(note, MONITOR_LIMITS.note))
    return fail(`note must be text of at most ${MONITOR_LIMITS.note} characters`);
  let input: MaintenanceInput;
  switch (body.kind) {
    case 'once': {
      const starts = time(body.starts);
      const ends = time(body.ends);
      if (starts === null || ends === null) return fail('starts and ends must be ISO 8601 times');
      input = { kind: 'once', starts, ends, note };
      break;
    }
    case 'weekly': {
      const days = body.days;
      if (!Array.isArray(days) || !days.every((d): d is number => typeof d === 'number'))
        return fail('days must be a list of weekday numbers from 0 (Sunday) to 6');
      if (typeof body.time !== 'string') return fail('time must be HH:MM');
      input = { kind: 'weekly', days: [...new Set(days)], time: body.time, durationMinutes: Number(body.durationMinutes), note };
      break;
    }
    case 'cron':
      if (typeof body.cron !== 'string' || body.cron.trim() === '') return fail('cron must be a cron expression such as "0 3 * * 0"');
      if (longerThan(body.cron, MONITOR_LIMITS.cron)) return fail(`cron must be at most ${MONITOR_LIMITS.cron} characters long`);
      input = { kind: 'cron', cron: body.cron.trim(), durationMinutes: Number(body.durationMinutes), note };
      break;
    default:
      return fail('kind must be once, weekly or cron');
  }
  const problem = maintenanceProblem(input, timeZone);
  return problem === null ? { ok: true, value: input } : fail(problem);
}

/** Who is told, and how often while a downtime lasts. */
export interface NotificationSettings {
  /** Administrators (user ids) who get e-mails; null: every administrator (the behaviour before there was a choice). */
  readonly administrators: readonly number[] | null;
  /** Further addresses. */
  readonly emails: readonly string[];
  /** Minutes between "still down" reminders; 0: none (the default). */
  readonly repeatMinutes: number;
}

export const DEFAULT_NOTIFICATIONS: NotificationSettings = { administrators: null, emails: [], repeatMinutes: 0 };

const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+$/;

export function parseNotifications(body: Readonly<Record<string, unknown>>, current: NotificationSettings): Parsed<NotificationSettings> {
  const administrators = 'administrators' in body ? body.administrators : current.administrators;
  if (
    administrators !== null &&
    (!Array.isArray(administrators) || !administrators.every((id): id is number => Number.isInteger(id) && (id as number) > 0))
  ) {
    return fail('administrators must be null (all) or a list of user ids');
  }
  if (administrators !== null && new Set(administrators).size > MONITOR_LIMITS.administrators)
    return fail(`administrators must list at most ${MONITOR_LIMITS.administrators} user ids`);
  const emails = 'emails' in body ? body.emails : current.emails;
  if (
    !Array.isArray(emails) ||
    emails.length > MONITOR_LIMITS.emails ||
    !emails.every((e): e is string => typeof e === 'string' && EMAIL.test(e) && !longerThan(e, MONITOR_LIMITS.email))
  )
    return fail(
      `emails must be a list of at most ${MONITOR_LIMITS.emails} e-mail addresses of at most ${MONITOR_LIMITS.email} characters each`,
    );
  const repeatMinutes = 'repeatMinutes' in body ? body.repeatMinutes : current.repeatMinutes;
  if (typeof repeatMinutes !== 'number' || !Number.isInteger(repeatMinutes) || repeatMinutes < 0 || repeatMinutes > 10_080)
    return fail('repeatMinutes must be whole minutes from 0 (off) to 10080');
  return {
    ok: true,
    value: { administrators: administrators === null ? null : [...new Set(administrators)], emails: [...new Set(emails)], repeatMinutes },
  };
}

/** The stored settings (an option), read leniently: anything unreadable falls back to the defaults. */
export function storedNotifications(value: unknown): NotificationSettings {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return DEFAULT_NOTIFICATIONS;
  const parsed = parseNotifications(value as Record<string, unknown>, DEFAULT_NOTIFICATIONS);
  return parsed.ok ? parsed.value : DEFAULT_NOTIFICATIONS;
}
