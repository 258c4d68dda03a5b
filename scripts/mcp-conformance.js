#!/usr/bin/env node
// Runs the MCP conformance suite's server checks (@modelcontextprotocol/conformance) and the MCP
// Inspector's CLI (@modelcontextprotocol/inspector-cli) against a real Siteward (docs/agents.md
// "Conformance"). Needs `npm run build:server` first and the npm registry (npx -y fetches both
// tools; neither is a dependency of Siteward).
//
//   node scripts/mcp-conformance.js            # Siteward's server, /wp-json/siteward/v1/mcp
//   MCP_PATH=/wp-json/mcp/mcp-adapter-default-server node scripts/mcp-conformance.js
//
// Neither tool can send an Authorization header to the server it tests, so a loopback proxy
// in this script adds the administrator's application password (HTTP Basic) to each request:
// the checks go through Siteward's real authentication, REST layer and MCP transport.
// Exit code: 0 when every applicable check passed (see NOT_APPLICABLE), 1 otherwise.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearTimeout, setTimeout } from 'node:timers';
import { Buffer } from 'node:buffer';
import { createAdmin, startSiteward } from '../bench/siteward-process.js';

// 0.1.12 runs on Node 20; 0.1.16 (the newest 0.1) imports fs.globSync, which needs Node 22.
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.12';
// The inspector's CLI mode. The standalone @modelcontextprotocol/inspector-cli (0.21.2, 1.0.3)
// cannot start from npx: it imports ../package.json, which only exists inside the inspector
// package. The inspector package's `--cli` is the same code; 0.21.2 declares Node >= 22.7.5 but
// its CLI mode runs on Node 20 (npx prints an engine warning).
const INSPECTOR = '@modelcontextprotocol/inspector@0.21.2';
const MCP_PATH = process.env.MCP_PATH ?? '/wp-json/siteward/v1/mcp';
const BIN = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));

/**
 * Scenarios whose checks test the suite's own reference server (its fixture tools, prompts and
 * resources such as `test_simple_text` or `test://static-text`) or features Siteward does not
 * offer; their failures say nothing about Siteward. Each with why.
 */
export const NOT_APPLICABLE = {
  'tools-call-': 'calls the reference server’s fixture tools (test_simple_text, test_image_content, …); Siteward’s tools are its abilities',
  'resources-read-':
    'reads the reference server’s fixture resources (test://…); Siteward’s are siteward://site/summary and siteward://audit/recent',
  'json-schema-2020-12': 'looks for the reference server’s fixture tool json_schema_2020_12_tool',
  'resources-templates': 'resource templates: Siteward offers none',
  'resources-subscribe': 'subscriptions need a session and a stream: Siteward is stateless JSON (no SSE), for several workers and hosts',
  'resources-unsubscribe': 'as resources-subscribe',
  'prompts-': 'prompts: Siteward offers none (no ability is declared as a prompt)',
  'logging-': 'logging/setLevel: Siteward sends no log notifications (no stream)',
  'completion-': 'completions: Siteward offers none',
  'elicitation-': 'the server asking the client (elicitation) needs a stream back to the client: none in stateless JSON mode',
  'sampling-': 'as elicitation: no server-to-client requests',
  'server-sse-': 'SSE streams and resumption: Siteward answers JSON only (GET answers 405, as the WordPress adapter)',
  'tools-call-with-progress': 'progress notifications need a stream',
};

function notApplicable(name) {
  for (const [prefix, why] of Object.entries(NOT_APPLICABLE)) if (name.startsWith(prefix)) return why;
  return null;
}

function run(command, args, { env = {}, timeoutMs = 300_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** A loopback proxy: `/mcp` → Siteward's MCP path, with the Basic header added (every other header, Host and Origin included, as sent). */
function startProxy(target, authorization) {
  const server = createServer((req, res) => {
    const url = new URL(target);
    const path = req.url === '/mcp' || req.url.startsWith('/mcp?') ? MCP_PATH + req.url.slice(4) : req.url;
    const upstream = request(
      { host: url.hostname, port: url.port, method: req.method, path, headers: { ...req.headers, authorization } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const dataDir = mkdtempSync(join(tmpdir(), 'siteward-mcp-conformance-'));
let siteward;
let proxy;
try {
  await createAdmin({ dataDir, login: 'agentadmin', email: 'agentadmin@example.org', password: 'conformance-password-1' });
  const created = await run(process.execPath, [BIN, 'app-password', 'create', 'agentadmin', 'conformance', '--porcelain'], {
    env: { SITEWARD_DATA_DIR: dataDir },
  });
  if (created.code !== 0) throw new Error(`app-password create failed:\n${created.out}`);
  const password = created.out.trim().split('\n').pop();
  siteward = await startSiteward({ dataDir });
  const authorization = `Basic ${Buffer.from(`agentadmin:${password}`).toString('base64')}`;
  proxy = await startProxy(siteward.baseUrl, authorization);
  const url = `http://127.0.0.1:${proxy.address().port}/mcp`;
  console.log(`Siteward ${siteward.baseUrl}${MCP_PATH} (through ${url})\n`);

  const only = process.env.MCP_SCENARIO ? ['--scenario', process.env.MCP_SCENARIO] : ['--suite', 'all'];
  const conformance = await run('npx', [
    '-y',
    CONFORMANCE,
    'server',
    '--url',
    url,
    ...only,
    ...(process.env.MCP_CONFORMANCE_RAW ? ['--verbose'] : []),
  ]);
  if (process.env.MCP_CONFORMANCE_RAW) console.log(conformance.out);
  const results = parseSummary(conformance.out);
  let failed = 0;
  const rows = [];
  for (const [scenario, { passed, failed: bad }] of results) {
    const why = notApplicable(scenario);
    const status = bad === 0 ? (passed === 0 ? 'none' : 'pass') : why ? 'n/a' : 'FAIL';
    if (status === 'FAIL') failed += 1;
    rows.push(`${status.padEnd(5)} ${scenario} (${passed} passed, ${bad} failed)${why && bad > 0 ? ` — ${why}` : ''}`);
  }
  if (results.size === 0) {
    console.log(conformance.out.slice(-4000));
    failed += 1;
  }
  console.log(`${CONFORMANCE} server --suite all:\n${rows.join('\n')}\n`);

  // The inspector sends the application password itself (--header), straight to Siteward.
  const direct = `${siteward.baseUrl}${MCP_PATH}`;
  const inspector = (...args) =>
    run('npx', ['-y', INSPECTOR, '--cli', direct, '--transport', 'http', '--header', `Authorization: ${authorization}`, ...args]);
  const list = await inspector('--method', 'tools/list');
  const names = [...list.out.matchAll(/"name":\s*"([^"]+)"/g)].map((m) => m[1]);
  console.log(`${INSPECTOR} tools/list: exit ${list.code}, ${names.length} tools (${names.slice(0, 3).join(', ')}, …)`);
  const tool = MCP_PATH.includes('adapter') ? 'mcp-adapter-discover-abilities' : 'siteward-list-modules';
  const call = await inspector('--method', 'tools/call', '--tool-name', tool);
  const callOk = call.code === 0 && call.out.includes('"content"') && !/"isError":\s*true/.test(call.out);
  console.log(`${INSPECTOR} tools/call ${tool}: exit ${call.code}, ${callOk ? 'a result' : 'an error'} (${call.out.length} bytes)`);
  if (list.code !== 0 || names.length === 0 || !callOk) {
    console.log(list.out.slice(-1500), call.out.slice(-1500));
    failed += 1;
  }
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  proxy?.close();
  await siteward?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The suite's summary lines: `✓ name: 1 passed, 0 failed` → name → {passed, failed}. */
function parseSummary(out) {
  const results = new Map();
  for (const match of out.matchAll(/^[✓✗]\s+([a-z0-9-]+):\s+(\d+) passed, (\d+) failed$/gmu)) {
    results.set(match[1], { passed: Number(match[2]), failed: Number(match[3]) });
  }
  return results;
}
