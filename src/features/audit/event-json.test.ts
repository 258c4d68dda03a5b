/**
 * The audit list's body from stored text is the very bytes of parsing each row and encoding the
 * list again, for canonical rows and for rows that are not (array-index keys, tampered text).
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../store/audit-chain.js';
import { eventOf } from '../../store/audit-repo.js';
import { JsonEncoder } from '../../rest/json-encoder.js';
import { eventsJson, isStringifyForm } from './event-json.js';

const encode = (data: unknown) => String(new JsonEncoder().encode(data));
const today = (rows: { id: number; data: string }[]) => JSON.stringify(rows.map(eventOf));

const values: unknown[] = [
  { action: 'module.activated', actor: { kind: 'user', user_id: 1 }, changes: { a: { before: 1.5, after: -2e-7 } }, time: 1764680000000 },
  {
    s: 'quote " backslash \\ newline \n tab \t control \u0001 del \u007f line \u2028 emoji 😀 accent é',
    n: [1, 1e21, 0.1, -0, null, true],
  },
  { lone: 'x\ud800y', low: '\udc00' },
  { changes: { '10': 1, '9': 2, a: 3 } },
  { object: { '0': 'index key' } },
  { big: { '4294967295': 1, '01': 2 } },
  {},
  { nested: { deep: [[[{ z: 1, a: [] }]]] }, empty: {} },
  { __proto__x: 1, constructor: 2, ['__proto__']: 3 },
];

describe('the audit list body from stored text', () => {
  it('is the bytes of parsing and encoding again, whatever canonical JSON the rows hold', () => {
    const rows = values.map((value, k) => ({ id: 100 - k, data: canonicalJson(value) }));
    for (const row of rows) expect(encode(eventsJson([row])), row.data).toBe(today([row]));
    expect(encode(eventsJson(rows))).toBe(today(rows));
    expect(encode(eventsJson([]))).toBe('[]');
  });

  it('splices canonical rows without array-index keys, and parses the others', () => {
    expect(isStringifyForm(canonicalJson(values[0]))).toBe(true);
    expect(isStringifyForm(canonicalJson(values[1]))).toBe(true);
    expect(isStringifyForm(canonicalJson(values[3]))).toBe(false);
    expect(isStringifyForm(canonicalJson(values[5]))).toBe(false);
  });

  it('gives tampered rows the bytes of parsing them, or fails as parsing them does', () => {
    const tampered = [
      '{ "a":1}',
      '{"a":1,"a":2}',
      '{"b":1,"a":2}',
      '{"id":7,"a":1}',
      '{"a":"\\u0041"}',
      '{"a":"\\/"}',
      '{"a":1.0}',
      '{"a":1E3}',
      '{"a":"\\ud83d\\ude00"}',
      '{"a":"\\u001F"}',
      '{"a":"\\u001f"}',
      '{"a\\n":1}',
      '[1,2]',
      'null',
      '{"a":[1,2,]}',
      '{"a":1}x',
      '{"a":tru}',
      '{"a":"open',
      `{"a":${'['.repeat(20000)}${']'.repeat(20000)}}`,
    ];
    for (const data of tampered) {
      const rows = [{ id: 3, data }];
      let expected: string;
      try {
        expected = today(rows);
      } catch (error) {
        expect(() => encode(eventsJson(rows)), data).toThrow((error as Error).constructor as new () => Error);
        continue;
      }
      expect(encode(eventsJson(rows)), data).toBe(expected);
    }
  });

  it('gives _fields, _envelope and batches the parsed events', () => {
    const rows = [{ id: 5, data: canonicalJson(values[0]) }];
    const body = eventsJson(rows);
    expect(JSON.stringify({ body })).toBe(JSON.stringify({ body: rows.map(eventOf) }));
  });
});
