/**
 * The `unit` and `http` projects run their files one after another in one worker thread that keeps
 * its modules and process state (vitest.config.ts, `isolate: false`). A file that leaves an
 * environment variable changed would change the next file's world (a TMPDIR that no longer
 * exists, say): it fails here, naming the variables, instead of some other file failing later.
 */
import { afterAll, beforeAll } from 'vitest';

let before: Record<string, string | undefined> = {};

beforeAll(() => {
  before = { ...process.env };
});

afterAll(() => {
  const names = new Set([...Object.keys(before), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => before[name] !== process.env[name]).sort();
  if (changed.length > 0) {
    throw new Error(
      `this file left process.env changed (${changed.join(', ')}): put it back in afterAll, the next file of this worker shares it (vitest.config.ts)`,
    );
  }
});
