import { defineConfig } from 'vitest/config';

/**
 * Three projects, by file name (docs/architecture.md "Tests"):
 * - `unit`: `*.test.ts` and the admin app's `*.test.tsx` — in-process, no listening socket (test/unit-setup.ts makes `listen` throw),
 *   no build; the inner loop (`npm run test:unit`).
 * - `http`: `*.http.test.ts` — real servers on 127.0.0.1 (the app, fake peers).
 * - `slow`: `*.slow.test.ts` (the built CLI, several processes) and `*.browser.test.ts` (Chromium);
 *   they need `npm run build`.
 * `unit` and `http` files share a worker thread's modules, `slow` files a forked worker's (`isolate: false`):
 * a file that changes process-wide state puts it back when it ends.
 * `npm test` (CI) builds, then runs all three.
 */
const HTTP = ['src/**/*.http.test.ts', 'test/**/*.http.test.ts'];
const SLOW = ['src/**/*.slow.test.ts', 'test/**/*.slow.test.ts', 'src/**/*.browser.test.ts', 'test/**/*.browser.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/plain-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // `*.test.tsx`: the admin app's components, each file in happy-dom (`// @vitest-environment happy-dom`).
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
          exclude: [...HTTP, ...SLOW],
          setupFiles: ['./test/unit-setup.ts', './test/shared-worker-setup.ts'],
          // Importing the app's module graph again for every file was most of the project's CPU
          // time: files share one worker thread's modules (each file still gets its own app).
          pool: 'threads',
          isolate: false,
        },
      },
      // The same for the in-process apps over sockets; a file that changes process-wide state
      // (environment variables, globals) puts it back in afterAll.
      {
        extends: true,
        test: { name: 'http', include: HTTP, setupFiles: ['./test/shared-worker-setup.ts'], pool: 'threads', isolate: false },
      },
      // Processes started under a loaded machine take long to come up: their waits are bounded polls (60 s).
      // Speed trick: the slow files share one forked worker and its modules too (`isolate: false`),
      // as `unit` and `http` do. A fresh fork per file re-imported vitest, playwright and the app's
      // module graph each time: about 3 s per file of 27 on a loaded 2-core machine.
      // Forks, not threads: these files spawn processes and drive Chromium.
      {
        extends: true,
        test: {
          name: 'slow',
          include: SLOW,
          testTimeout: 120_000,
          setupFiles: ['./test/shared-worker-setup.ts'],
          pool: 'forks',
          isolate: false,
        },
      },
    ],
  },
});
