import { describe, expect, it } from 'vitest';
import { WorkerRestarts } from './cluster-restarts.js';

describe('the primary process, when a worker exits', () => {
  it('stops the server when a worker fails before the server ever served', () => {
    expect(new WorkerRestarts().exited(false)).toEqual({ kind: 'stop', reason: 'a worker could not start' });
  });

  it('replaces a worker that had served after a short wait', () => {
    const restarts = new WorkerRestarts({ firstDelayMs: 500, maxDelayMs: 30_000 });
    restarts.listening();
    expect(restarts.exited(true)).toEqual({ kind: 'restart', afterMs: 500 });
  });

  it('keeps retrying replacements that cannot start once the server has served, backing off up to the limit', () => {
    const restarts = new WorkerRestarts({ firstDelayMs: 500, maxDelayMs: 30_000 });
    restarts.listening();
    expect(restarts.exited(true)).toEqual({ kind: 'restart', afterMs: 500 });
    const waits = Array.from({ length: 8 }, () => restarts.exited(false));
    expect(waits.map((d) => (d.kind === 'restart' ? d.afterMs : -1))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts the back-off over once a replacement serves again', () => {
    const restarts = new WorkerRestarts({ firstDelayMs: 500, maxDelayMs: 30_000 });
    restarts.listening();
    restarts.exited(false);
    restarts.exited(false);
    restarts.listening();
    expect(restarts.exited(false)).toEqual({ kind: 'restart', afterMs: 1000 });
  });
});
