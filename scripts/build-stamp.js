#!/usr/bin/env node
// Lets `npm test` skip a build that is already done. `npm ci` (CI's first step) runs `prepare`,
// which is `npm run build`; `npm test`'s `pretest` built everything again straight after it
// (about a minute of CI's run on two cores). `npm run build` ends with `write`, which records a
// hash of everything the build reads in dist/.build-stamp; `pretest` runs `check` and builds
// only when the hash differs (any source, config or lockfile changed since) or dist/ lacks a
// file the tests load.
//
//   node scripts/build-stamp.js write   # after a build
//   node scripts/build-stamp.js check   # exit 0: dist/ is current; 1: build
//
// Over-inclusive on purpose: every file under src/ (tests too) and every config the build
// reads; a change anywhere there means a build, never a stale dist/.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist', '.build-stamp');
const INPUT_DIRS = ['src'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build-stamp.js'];
/** What the tests load from dist/: the server's entry and the admin app's manifest. */
const OUTPUTS = ['dist/index.js', 'dist/cli.js', 'dist/admin/manifest.json'];

function files(rel) {
  const abs = path.join(root, rel);
  if (!existsSync(abs)) return [];
  const entries = readdirSync(abs, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
}

function inputHash() {
  const hash = createHash('sha256');
  for (const file of [...INPUT_DIRS.flatMap(files), ...INPUT_FILES.filter((f) => existsSync(path.join(root, f)))]) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  hash.update(process.version.split('.')[0] ?? '');
  return hash.digest('hex');
}

const command = process.argv[2];
if (command === 'write') {
  writeFileSync(STAMP, `${inputHash()}\n`);
} else if (command === 'check') {
  const missing = OUTPUTS.filter((f) => !existsSync(path.join(root, f)));
  const current = existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === inputHash();
  if (missing.length === 0 && current) {
    console.log('dist/ was built from these sources (dist/.build-stamp): build skipped');
    process.exit(0);
  }
  console.log(missing.length ? `dist/ lacks ${missing.join(', ')}: building` : 'sources changed since the last build: building');
  process.exit(1);
} else {
  console.error('usage: node scripts/build-stamp.js write|check');
  process.exit(2);
}
