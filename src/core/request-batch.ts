/**
 * Requests read from the sockets in one poll phase of the event loop form a batch. Every byte
 * of them had reached this process's sockets before that poll phase began, so a value read from
 * the database after the batch's first request arrived is at least as new as anything the
 * batch's clients could have seen committed (by any process) before sending. Per-turn caches of
 * state that other processes change (the SQLite state versions) are therefore shared within a
 * batch and never across batches: a read made earlier in the turn (in the timers phase, before
 * the poll phase) is not used for a request that arrives afterwards.
 *
 * Speed: this lets the requests of one poll phase share one read of the credentials and options
 * versions instead of reading them once per request (see docs/performance.md).
 */
let batch = 0;
let open = false;

const close = (): void => {
  open = false;
};

/** Called synchronously by the HTTP server as each request arrives (in the poll phase). */
export function requestArrived(): void {
  if (open) return;
  open = true;
  batch += 1;
  // Scheduled from the poll phase, it runs in this turn's check phase, right after the batch.
  setImmediate(close);
}

/** The number of the current batch: a cached read tagged with another number is too old. */
export function currentRequestBatch(): number {
  return batch;
}
