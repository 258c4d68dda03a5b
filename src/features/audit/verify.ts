/**
 * `siteward audit verify` (docs/audit-log.md "Verifying"): recomputes the hash chain from the
 * rows, checks that the filter columns agree with the hashed events, that ids have no gap, and
 * that every checkpoint's signature holds and its head hash is the row's. Reports the first row
 * that breaks.
 */
import type { KeyObject } from 'node:crypto';
import { chainHash, GENESIS_HASH } from '../../store/audit-chain.js';
import type { AuditLogRepo, StoredAuditRow } from '../../store/types.js';
import type { AuditCheckpoint } from '../../wire/audit.js';
import { checkpointSignatureHolds } from './signing.js';
import { auditEvent, type AuditSource } from './source.js';

export type VerifyResult =
  | { readonly ok: true; readonly rows: number; readonly firstId: number | null; readonly lastId: number; readonly checkpoints: number }
  | { readonly ok: false; readonly row: number; readonly reason: string };

const PAGE = 1000;

/** Why the row's filter columns disagree with its hashed event, or null. */
function columnProblem(row: StoredAuditRow): string | null {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    return 'its data is not JSON';
  }
  const object = event.object as { type?: unknown; id?: unknown } | null | undefined;
  const actor = event.actor as { user_id?: unknown } | undefined;
  const expected: [string, unknown, unknown][] = [
    ['time', row.time, event.time],
    ['action', row.action, event.action],
    ['result', row.result, event.result],
    ['actor_user_id', row.actorUserId, actor?.user_id],
    ['object_type', row.objectType, object?.type ?? ''],
    ['object_id', row.objectId, object?.id ?? ''],
  ];
  for (const [column, stored, hashed] of expected) if (stored !== hashed) return `its ${column} column disagrees with the hashed event`;
  return null;
}

/**
 * Verifies the whole log, or its start up to `upTo` (the retention checks what it is about to
 * cut). `publicKey` verifies the checkpoints.
 */
export async function verifyAuditLog(log: AuditLogRepo, publicKey: KeyObject, upTo = Number.MAX_SAFE_INTEGER): Promise<VerifyResult> {
  const checkpoints = await log.checkpoints();
  for (const checkpoint of checkpoints) {
    if (!checkpointSignatureHolds(publicKey, checkpoint))
      return { ok: false, row: checkpoint.last_id, reason: `the checkpoint at row ${checkpoint.last_id} has an invalid signature` };
    if (checkpoint.count !== checkpoint.last_id)
      return {
        ok: false,
        row: checkpoint.last_id,
        reason: `the checkpoint at row ${checkpoint.last_id} counts ${checkpoint.count} events`,
      };
  }
  const byLastId = new Map<number, AuditCheckpoint>(checkpoints.map((c) => [c.last_id, c]));
  let previousId: number | null = null;
  let previousHash = GENESIS_HASH;
  let firstId: number | null = null;
  let rows = 0;
  for (;;) {
    const page = await log.rows(previousId ?? 0, PAGE);
    for (const row of page) {
      if (row.id > upTo) break;
      if (previousId === null) {
        // The start: the genesis, or the signed checkpoint the retention cut at.
        firstId = row.id;
        if (row.id !== 1) {
          const anchor = byLastId.get(row.id - 1);
          if (!anchor)
            return {
              ok: false,
              row: row.id - 1,
              reason: `row ${row.id - 1} is missing: the log starts at row ${row.id} without a checkpoint there`,
            };
          previousHash = anchor.head_hash;
        }
      } else if (row.id !== previousId + 1) {
        return { ok: false, row: previousId + 1, reason: `row ${previousId + 1} is missing` };
      }
      const hash = chainHash(previousHash, row.id, row.data);
      if (hash !== row.hash)
        return { ok: false, row: row.id, reason: `row ${row.id}'s hash does not match its content and the row before` };
      const problem = columnProblem(row);
      if (problem) return { ok: false, row: row.id, reason: `row ${row.id}: ${problem}` };
      const checkpoint = byLastId.get(row.id);
      if (checkpoint && checkpoint.head_hash !== hash)
        return {
          ok: false,
          row: row.id,
          reason: `row ${row.id} differs from the signed checkpoint there: the rows up to it were rewritten`,
        };
      previousId = row.id;
      previousHash = hash;
      rows += 1;
    }
    if (page.length < PAGE || (previousId !== null && previousId >= upTo)) break;
  }
  let lastId = previousId ?? 0;
  // Everything purged: the log goes on from the checkpoint the retention cut at.
  const top = checkpoints.at(-1);
  if (previousId === null && top) {
    lastId = top.last_id;
    previousHash = top.head_hash;
  }
  if (upTo === Number.MAX_SAFE_INTEGER) {
    // Rows cut from the end: a checkpoint or the head names rows that are not there.
    const beyond = checkpoints.find((c) => c.last_id > lastId);
    if (beyond)
      return {
        ok: false,
        row: lastId + 1,
        reason: `row ${lastId + 1} is missing: a signed checkpoint covers rows up to ${beyond.last_id}`,
      };
    const head = await log.head();
    if (head.lastId !== lastId || head.hash !== previousHash)
      return {
        ok: false,
        row: Math.min(head.lastId, lastId) + 1,
        reason: `the chain's head (row ${head.lastId}) does not match the last row (${lastId})`,
      };
  }
  return { ok: true, rows, firstId, lastId, checkpoints: checkpoints.length };
}

/**
 * Records a failed verification as an `audit.verify_failed` event (result `failed`), so that
 * alerts and forwarding tell someone: `row` is the first broken row (null when the failure names
 * none, e.g. a backup's checkpoint signed by another key), `reason` why. The event goes after
 * everything the log has ever numbered (the head, the newest row, the newest checkpoint and the
 * broken row itself): appended at the head, it could fill a row cut from the end and move the
 * break verification names. A break in the middle stays where it is, since the event only
 * chains on after it; verification keeps naming the first broken row (docs/audit-log.md
 * "After a break").
 */
export async function recordVerifyFailure(log: AuditLogRepo, source: AuditSource, row: number | null, reason: string): Promise<void> {
  const [head, newest, checkpoints] = await Promise.all([log.head(), log.list({}, { limit: 1, offset: 0 }), log.checkpoints()]);
  const afterId = Math.max(head.lastId, newest[0]?.id ?? 0, checkpoints.at(-1)?.last_id ?? 0, row ?? 0);
  const event = auditEvent(
    source,
    'audit.verify_failed',
    { type: 'audit_log', id: row === null ? 'chain' : String(row), name: 'audit log' },
    { broken_row: { before: null, after: row }, reason: { before: null, after: reason } },
    'failed',
  );
  await log.appendBeyond([event], afterId);
}
