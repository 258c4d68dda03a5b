import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshPgSchema } from './pg-schema.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/** The stores a pair of workers is tested on: SQLite, and PostgreSQL when `SITEWARD_TEST_PG` is set. */
export const pairStores: readonly ('sqlite' | 'postgres')[] = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * Two instances on one store, as two workers of `siteward start`: each has its own connection
 * and caches. On SQLite every request batch reads the state versions; on PostgreSQL they are
 * pushed by LISTEN/NOTIFY, so "at once" there means from the moment the notification arrived:
 * `notified()` waits (bounded) until each has heard of the other's options and credentials writes.
 */
export interface WorkerPair {
  readonly first: TestApp;
  readonly second: TestApp;
  notified(): Promise<void>;
  close(): Promise<void>;
}

export async function startWorkerPair(
  backend: 'sqlite' | 'postgres',
  options: Omit<TestAppOptions, 'dataDir' | 'env'> = {},
): Promise<WorkerPair> {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-two-workers-'));
  const schema = backend === 'postgres' ? await freshPgSchema() : null;
  const env: Record<string, string> = schema ? { SITEWARD_DATABASE_URL: schema.url } : {};
  const first = await createTestApp({ ...options, dataDir: dir, env });
  const second = await createTestApp({ ...options, dataDir: dir, env });
  const heard = async (listener: TestApp, writer: TestApp) => {
    const options = await writer.store.options.version();
    const credentials = await writer.store.sessions.credentialsVersion();
    const deadline = Date.now() + 20_000;
    while ((await listener.store.options.version()) < options || (await listener.store.sessions.credentialsVersion()) < credentials) {
      if (Date.now() > deadline) throw new Error('the state versions never reached the other worker');
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  return {
    first,
    second,
    notified: async () => {
      if (backend !== 'postgres') return;
      await heard(second, first);
      await heard(first, second);
    },
    close: async () => {
      await first.close();
      await second.close();
      await schema?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
