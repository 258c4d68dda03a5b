/**
 * The audit log's hash chain (docs/audit-log.md "Tamper evidence"). Each row's hash is
 * `sha256(previous hash ‖ id as 8-byte big-endian ‖ UTF-8 canonical JSON of the row's event)`,
 * the event without `id` (the id is hashed as the 8 bytes instead). The first row's previous
 * hash is the genesis (32 zero bytes), or the signed checkpoint the retention cut at.
 *
 * PostgreSQL computes the same hash in SQL (audit-pg.ts): `sha256(decode(prev, 'hex') ||
 * int8send(id) || convert_to(data, 'UTF8'))`; verification recomputes it here.
 */
import { createHash, hash } from 'node:crypto';
import type { AuditEvent, AuditEventInput } from '../wire/audit.js';

/** The previous hash of the first event ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every level and no whitespace: one text per value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new TypeError('value is not representable as JSON');
    return text;
  }
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    // Speed (issue 44): an array of strings, numbers and booleans has one JSON text already, so
    // the native stringify writes it (a toggle's before/after module lists) instead of a
    // recursive call per item. Anything else takes the general path below.
    if (items.every(isScalar)) return JSON.stringify(items);
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (i > 0) out += ',';
      out += canonicalJson(item === undefined ? null : item);
    }
    return `${out}]`;
  }
  // Speed (issue 44): one string built in a loop, not filter/sort/map/join arrays per object.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/** A JSON scalar other than null, whose JSON.stringify text is already canonical. */
function isScalar(item: unknown): boolean {
  const type = typeof item;
  return type === 'string' || type === 'number' || type === 'boolean';
}

/** An event before the store numbers it: what is hashed and kept in the `data` column. */
export type AuditDraft = Omit<AuditEvent, 'id'>;

/** The stored text of an event (everything but `id`). */
export function eventData(event: AuditDraft): string {
  return canonicalJson(event);
}

/** The event in `input` as recorded now by `hostId`. */
export function draftOf(input: AuditEventInput, time: number, hostId: string): AuditDraft {
  return { ...input, time, host_id: hostId };
}

/** A row's hash from the previous row's hash, its id and its data text. */
export function chainHash(previous: string, id: number, data: string): string {
  // Speed (issue 44): the three parts written into one buffer and hashed by the one-shot
  // crypto.hash, not a Hash object fed three Buffers (the same bytes, so the same hash).
  const dataBytes = Buffer.byteLength(data, 'utf8');
  const input = Buffer.allocUnsafe(40 + dataBytes);
  input.writeBigInt64BE(BigInt(id), 32);
  // Anything but 64 hex digits (a tampered head) is hashed exactly as before, by the slow path.
  if (previous.length !== 64 || input.write(previous, 0, 32, 'hex') !== 32)
    return createHash('sha256').update(Buffer.from(previous, 'hex')).update(input.subarray(32, 40)).update(data, 'utf8').digest('hex');
  input.write(data, 40, dataBytes, 'utf8');
  return hash('sha256', input, 'hex');
}
