// Issue 44 item 4: the RSS of a worker that never serves MCP, OTLP forwarding or S3 backups, and
// which heavy packages it loaded. Starts `siteward start` (one worker, SQLite, temp data dir),
// reads VmRSS/VmHWM of the serving process when idle, after GET jetpack/v4/settings (logged in)
// and, with `mcp`, after one MCP call. One more start, not measured (a loader hook runs its own
// thread), lists the node_modules packages the process loaded at each step (an ESM loader hook
// plus CommonJS `require`).
//
//   node bench/idle-rss.js [rounds=3] [mcp]
//
// Needs `npm run build:server`. SERVE_COST_ROOT is not used: run it in each checkout to compare.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryOf, installExitHandlers } from './proc.js';
import { createAdmin, login, startSiteward } from './siteward-process.js';
import { request } from './http-client.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const WITH_MCP = process.argv.includes('mcp');
installExitHandlers({ deadlineMs: 10 * 60_000 });

// The hook runs in the child: every package it loads (ESM through the hook, CommonJS through
// Module._load), written to a file the bench reads at each step.
const hookDir = mkdtempSync(path.join(os.tmpdir(), 'siteward-idle-rss-hook-'));
const listFile = path.join(hookDir, 'loaded.txt');
writeFileSync(
  path.join(hookDir, 'register.mjs'),
  `import { register, Module } from 'node:module';
import { appendFileSync } from 'node:fs';
const seen = new Set();
const note = (file) => {
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
  if (m && !seen.has(m[1])) { seen.add(m[1]); appendFileSync(${JSON.stringify(listFile)}, m[1] + '\\n'); }
};
register('data:text/javascript,' + encodeURIComponent(\`export async function load(url, context, next) {
  const out = await next(url, context);
  if (url.includes('/node_modules/')) (await import('node:fs')).appendFileSync(${JSON.stringify(listFile)}, url + '\\\\n');
  return out;
}\`));
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const out = load.apply(this, arguments);
  try { note(Module._resolveFilename(request, parent, isMain)); } catch {}
  return out;
};
`,
);
const packages = () => {
  const names = new Set();
  for (const line of readFileSync(listFile, 'utf8').split('\n')) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(line);
    if (m) names.add(m[1]);
  }
  return names;
};
const heavy = (names) => [...names].filter((n) => /^@modelcontextprotocol|^@aws-sdk|^@smithy|^@opentelemetry|^zod$|^ajv/.test(n)).sort();

const rows = [];
for (let r = 0; r <= ROUNDS; r++) {
  // The last start only lists packages (with the hook); the others measure (without).
  const listing = r === ROUNDS;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'siteward-idle-rss-'));
  writeFileSync(listFile, '');
  try {
    await createAdmin({ dataDir, login: 'rssadmin', email: 'rss@example.org', password: 'rss-password-1' });
    const server = await startSiteward({
      dataDir,
      env: listing ? { NODE_OPTIONS: `--import=${path.join(hookDir, 'register.mjs')}` } : {},
    });
    try {
      const pid = server.servingPids()[0];
      await sleep(2000);
      const idle = memoryOf(pid);
      const idlePackages = packages();
      const auth = await login(server.baseUrl, 'rssadmin', 'rss-password-1');
      const loggedIn = memoryOf(pid);
      for (let i = 0; i < 20; i++) {
        const res = await request(`${server.baseUrl}/wp-json/jetpack/v4/settings`, { headers: auth.headers });
        if (res.status !== 200) throw new Error(`GET settings answered ${res.status}`);
      }
      const settings = memoryOf(pid);
      const row = { idle, idlePackages, loggedIn, settings, settingsPackages: packages() };
      if (WITH_MCP) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
        const res = await request(`${server.baseUrl}/wp-json/mcp/mcp-adapter-default-server`, {
          method: 'POST',
          headers: { ...auth.headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body,
        });
        if (res.status !== 200) throw new Error(`MCP tools/list answered ${res.status}: ${res.text.slice(0, 200)}`);
        row.mcp = memoryOf(pid);
        row.mcpPackages = packages();
      }
      rows.push(row);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
rmSync(hookDir, { recursive: true, force: true });
const mb = (m) => `${m.rssMB.toFixed(1)} (peak ${m.hwmMB.toFixed(1)})`;
console.log(`RSS MB of the serving process (siteward start, 1 worker, SQLite), ${ROUNDS} rounds`);
for (const [i, row] of rows.slice(0, ROUNDS).entries()) {
  console.log(
    `round ${i + 1}: idle ${mb(row.idle)}; after POST /login ${mb(row.loggedIn)}; after 20 × GET settings ${mb(row.settings)}${row.mcp ? `; after MCP tools/list ${mb(row.mcp)}` : ''}`,
  );
}
const last = rows.at(-1);
console.log(`packages loaded when idle (${last.idlePackages.size}): ${[...last.idlePackages].sort().join(', ')}`);
console.log(`heavy ones: ${heavy(last.idlePackages).join(', ') || 'none'}`);
console.log(`after GET settings, heavy ones: ${heavy(last.settingsPackages).join(', ') || 'none'}`);
if (last.mcpPackages) console.log(`after an MCP call, heavy ones: ${heavy(last.mcpPackages).join(', ') || 'none'}`);
process.exit(0);
