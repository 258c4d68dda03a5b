/**
 * The audit log's hash chain (docs/audit-log.md "Tamper evidence"). Each row's hash is
 * `sha256(previous hash ‖ id as 8-byte big-endian ‖ UTF-8 canonical JSON of the row's event)`,
 * the event without `id` (the id is hashed as the 8 bytes instead). The first row's previous
 * hash is the genesis (32 zero bytes), or the signed checkpoint the retention cut at.
 *
 * PostgreSQL computes the same hash in SQL (audit-pg.ts): `sha256(decode(prev, 'hex') ||
 * int8send(id) || convert_to(data, 'UTF8'))`; verification recomputes it here.
 */
import { createHash } from 'node:crypto';
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
  if (Array.isArray(value)) return `[${value.map((item: unknown) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
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
  const idBytes = Buffer.alloc(8);
  idBytes.writeBigInt64BE(BigInt(id));
  return createHash('sha256').update(Buffer.from(previous, 'hex')).update(idBytes).update(data, 'utf8').digest('hex');
}
