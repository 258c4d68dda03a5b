/**
 * `GET siteward/v1/audit/export` over HTTP: administrators only, the list's filters, NDJSON and
 * CSV parsed back (CSV by an RFC 4180 reader written here: no CSV library is installed), file
 * name and types, formula-looking cells made inert.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { AuditEvent, AuditEventInput } from '../../wire/audit.js';
import { CSV_HEADER } from './export.js';

/** RFC 4180 records: fields separated by commas, records by CRLF, quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
        if (i < text.length && text[i] !== ',' && text[i] !== '\r') throw new Error(`text after a closing quote at ${i}`);
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      i += 1;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i += 1;
    } else if (c === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`CR without LF at ${i}`);
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (c === '\n') {
      throw new Error(`a bare LF outside quotes at ${i}`);
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new Error('an unterminated quoted field');
  if (field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

const NASTY_AGENT = '=HYPERLINK("http://evil.example","x"), "quoted"\r\nnext line é';

function event(i: number): AuditEventInput {
  return {
    action: i % 2 === 0 ? 'option.updated' : 'module.activated',
    result: 'ok',
    actor: { kind: 'user', user_id: 1, login: i === 3 ? '@admin' : 'admin', credential: { type: 'none' } },
    client_ip: '203.0.113.7',
    user_agent: i === 5 ? NASTY_AGENT : 'agent',
    request_id: `r${i}`,
    object: { type: 'option', id: `o${i}`, name: i === 7 ? '-1+1' : `o${i}` },
    changes: { [`o${i}`]: { before: i - 1, after: i } },
  };
}

const backends = [{ name: 'sqlite' as const }, ...(process.env.SITEWARD_TEST_PG ? [{ name: 'postgres' as const }] : [])];

describe.each(backends)('GET siteward/v1/audit/export on $name', ({ name }) => {
  let t: TestApp;
  let schema: PgSchema | null = null;
  let admin: LoggedIn;
  let editor: LoggedIn;
  const SEEDED = 1234;
  const get = (path: string, as?: LoggedIn) => t.request({ path: `/wp-json/siteward/v1${path}`, headers: as ? t.auth(as) : {} });

  beforeAll(async () => {
    schema = name === 'postgres' ? await freshPgSchema() : null;
    t = await createTestApp({ startJobs: false, env: schema ? { SITEWARD_DATABASE_URL: schema.url } : {} });
    admin = await t.loginAs('administrator', { login: 'root' });
    editor = await t.loginAs('editor', { login: 'ed' });
    // More than two export pages (500 each).
    const events = Array.from({ length: SEEDED }, (_, k) => event(k + 1));
    await t.store.auditLog.append(events);
  });
  afterAll(async () => {
    await t.close();
    await schema?.drop();
  });

  it('answers administrators only', async () => {
    expect((await get('/audit/export')).status).toBe(401);
    expect((await get('/audit/export', editor)).status).toBe(403);
    expect((await get('/audit/export?format=xml', admin)).status).toBe(400);
  });

  it('streams every event as NDJSON, oldest first, each line the event as the list shows it', async () => {
    const res = await get('/audit/export', admin);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="siteward-audit-\d{8}T\d{6}Z\.ndjson"$/);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['cache-control']).toContain('no-cache');
    expect(res.text.endsWith('\n')).toBe(true);
    const events = res.text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEvent);
    const total = Number((await get('/audit', admin)).headers['x-wp-total']);
    expect(events).toHaveLength(total);
    expect(events.length).toBeGreaterThanOrEqual(SEEDED);
    for (let k = 1; k < events.length; k++) expect(events[k]!.id).toBe(events[k - 1]!.id + 1);
    const fifth = events.find((e) => e.request_id === 'r5')!;
    expect(fifth.user_agent).toBe(NASTY_AGENT);
    expect((await get(`/audit/${fifth.id}`, admin)).json).toEqual(fifth);
  });

  it('takes the list filters', async () => {
    const res = await get('/audit/export?format=ndjson&action=module.&search=R1', admin);
    const events = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEvent);
    const listed = await get('/audit?action=module.&search=R1&per_page=100', admin);
    expect(events.length).toBe(Number(listed.headers['x-wp-total']));
    expect(events.every((e) => e.action === 'module.activated' && e.request_id.startsWith('r1'))).toBe(true);
    const none = await get('/audit/export?after=2999-01-01T00:00:00Z', admin);
    expect(none.status).toBe(200);
    expect(none.text).toBe('');
    const emptyCsv = await get('/audit/export?format=csv&after=2999-01-01T00:00:00Z', admin);
    expect(emptyCsv.text).toBe(`${CSV_HEADER.join(',')}\r\n`);
  });

  it('streams CSV by RFC 4180 with a header row, and cells that look like formulas made text', async () => {
    const res = await get('/audit/export?format=csv&object_type=option', admin);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toMatch(/filename="siteward-audit-\d{8}T\d{6}Z\.csv"/);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([...CSV_HEADER]);
    expect(rows).toHaveLength(SEEDED);
    for (const row of rows) expect(row).toHaveLength(CSV_HEADER.length);
    const column = (name: (typeof CSV_HEADER)[number]) => CSV_HEADER.indexOf(name);
    const byRequest = new Map(rows.map((row) => [row[column('request_id')], row]));
    // The formula prefix is kept as text; quotes, commas, CRLF and non-ASCII come back whole.
    expect(byRequest.get('r5')![column('user_agent')]).toBe(`'${NASTY_AGENT}`);
    expect(byRequest.get('r3')![column('actor_login')]).toBe("'@admin");
    expect(byRequest.get('r7')![column('object_name')]).toBe("'-1+1");
    const second = byRequest.get('r2')!;
    expect(second[column('action')]).toBe('option.updated');
    expect(JSON.parse(second[column('changes')]!)).toEqual({ o2: { before: 1, after: 2 } });
    expect(new Date(second[column('time')]!).toISOString()).toBe(second[column('time')]);
  });
});
