// A/B comparison of two Siteward checkouts on the same scenarios, interleaved round by round so
// that load from outside the bench hits both alike: `node bench/ab.js <other-checkout> [rounds]`.
// Prints the median server CPU µs per request of each side per scenario (BENCH_ONLY=<regex> picks
// scenarios). See docs/performance.md.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureScenario } from './measure.js';
import { installExitHandlers } from './proc.js';
import { mainScenarios } from './scenarios.js';

const [otherRoot, roundsArg] = process.argv.slice(2);
if (!otherRoot) throw new Error('usage: node bench/ab.js <other-checkout> [rounds]');
const rounds = Number(roundsArg ?? 5);
// BENCH_ONLY=<regex>: only the scenarios whose name matches, as in run.js.
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const scenariosOf = (auth) => mainScenarios(auth).filter((s) => !only || only.test(s.name));
installExitHandlers({ deadlineMs: 60_000 + rounds * 8 * 2 * 12_000 });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'siteward-ab-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const ADMIN = { login: 'benchadmin', email: 'bench@example.org', password: `pw${randomBytes(12).toString('base64url')}` };

async function side(name, root) {
  const proc = await import(pathToFileURL(path.join(root, 'bench/siteward-process.js')).href);
  const dataDir = path.join(tmp, name);
  mkdirSync(dataDir);
  await proc.createAdmin({ dataDir, ...ADMIN });
  const server = await proc.startSiteward({ dataDir });
  const auth = (await proc.login(server.baseUrl, ADMIN.login, ADMIN.password)).headers;
  return { name, server, auth };
}

const sides = [await side('this', process.cwd()), await side('other', path.resolve(otherRoot))];
const results = new Map();
for (let round = 0; round < rounds; round++) {
  for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
    for (const scenario of scenariosOf(s.auth)) {
      const r = await measureScenario(s.server, scenario);
      const key = `${scenario.name}\t${s.name}`;
      results.set(key, [...(results.get(key) ?? []), r.cpuUsPerReq]);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log('scenario\tthis µs/req\tother µs/req\tthis/other');
for (const scenario of scenariosOf({})) {
  const a = median(results.get(`${scenario.name}\tthis`));
  const b = median(results.get(`${scenario.name}\tother`));
  console.log(`${scenario.name}\t${a.toFixed(0)}\t${b.toFixed(0)}\t${(a / b).toFixed(2)}`);
}
for (const s of sides) await s.server.stop();
process.exit(0);
