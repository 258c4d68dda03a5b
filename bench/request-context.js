// Micro-bench: what does tracking third-party callbacks in an
// AsyncLocalStorage cost the built-in routes? In-process, no HTTP: N sequential
// `rest.serve()` calls of a built-in route, one variant per child process (ALS and JIT state are
// process-wide), variants interleaved and repeated. Needs `npm run build` first.
//
//   node bench/request-context.js [N=20000] [rounds=5]
//
// Variants:
//   builtin-only      a third-party route was never called
//   after-plugin      a tracked third-party route was called (and settled) before the run
//   plugin-inflight   a tracked third-party request stays pending during the whole run
//                     (the promise hooks stay on: what the store costs while enabled)
//   plugin-route      the tracked third-party route itself (async, reports after await)
//   untracked-route   the same route registered through the plain API (no ALS)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 20000);
const ROUNDS = Number(process.argv[3] ?? 5);
const VARIANTS = ['builtin-only', 'after-plugin', 'plugin-inflight', 'plugin-route', 'untracked-route'];

async function child(variant) {
  const { RestServer } = await import('../dist/rest/rest-server.js');
  const { withRequestContext } = await import('../dist/plugins/request-context.js');
  const { deprecatedFunction } = await import('../dist/rest/deprecation.js');
  const anonymous = { id: 0, login: '', email: '', displayName: '', roles: [], can: () => false };
  const rest = new RestServer({
    urls: (p = '/') => `http://example.org/wp-json${p}`,
    authenticator: {
      identify: () => ({ kind: 'anonymous' }),
      verifyNonce: () => false,
      createNonce: () => 'n',
      anonymous: () => anonymous,
    },
    siteSummary: () => ({ name: 'Site', description: '', url: 'http://example.org', home: 'http://example.org' }),
    warn: () => undefined,
  });
  const plain = {
    registerRoute: (ns, r, d, o) => rest.registerRoute(ns, r, d, o),
    registerField() {},
    deprecatedFunction,
    deprecatedArgument() {},
  };
  const plugin = withRequestContext(plain);
  // A built-in route shaped like the settings read: an argument, a permission check, two awaits.
  const settings = { a: 1, b: 'two', c: [3, 4], d: { e: true } };
  plain.registerRoute('core/v1', '/settings', {
    args: { context: { type: 'string', default: 'view' } },
    permissionCallback: () => true,
    callback: async () => {
      await Promise.resolve();
      await Promise.resolve();
      return settings;
    },
  });
  let release;
  const hold = new Promise((resolve) => (release = resolve));
  const pluginRoute = {
    permissionCallback: () => true,
    callback: async (req) => {
      await Promise.resolve();
      if (req.params.hold) await hold;
      await Promise.resolve();
      plugin.deprecatedFunction('old_fn', '1.0', 'new_fn');
      return settings;
    },
  };
  plugin.registerRoute('plug/v1', '/thing', pluginRoute);
  plain.registerRoute('plain/v1', '/thing', pluginRoute);

  const incoming = (route, query = {}) => ({
    method: 'GET',
    route,
    query,
    headers: {},
    body: '',
    origin: { secure: false, hostname: 'example.org' },
  });
  const route = variant === 'plugin-route' ? '/plug/v1/thing' : variant === 'untracked-route' ? '/plain/v1/thing' : '/core/v1/settings';
  let pending = null;
  if (variant === 'after-plugin') await rest.serve(incoming('/plug/v1/thing'));
  if (variant === 'plugin-inflight') pending = rest.serve(incoming('/plug/v1/thing', { hold: '1' }));
  // Warm-up, then the measured run.
  for (let i = 0; i < 3000; i++) await rest.serve(incoming(route));
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await rest.serve(incoming(route));
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / N;
  const cpu = process.cpuUsage(cpu0);
  if (pending) {
    release();
    await pending;
  }
  process.send({ variant, wallUs: wall, cpuUs: (cpu.user + cpu.system) / N });
}

function run(variant) {
  return new Promise((resolve, reject) => {
    const p = fork(fileURLToPath(import.meta.url), [String(N), '1', variant]);
    p.on('message', resolve);
    p.on('error', reject);
    p.on('exit', (code) => code !== 0 && reject(new Error(`${variant} exited ${code}`)));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[4]) {
  await child(process.argv[4]);
} else {
  const results = Object.fromEntries(VARIANTS.map((v) => [v, []]));
  for (let r = 0; r < ROUNDS; r++) for (const v of VARIANTS) results[v].push(await run(v));
  console.log(`N=${N} rest.serve() calls per run, ${ROUNDS} interleaved runs per variant; median µs/request (min–max)`);
  for (const v of VARIANTS) {
    const wall = results[v].map((x) => x.wallUs);
    const cpu = results[v].map((x) => x.cpuUs);
    console.log(
      `${v.padEnd(16)} wall ${median(wall).toFixed(2)} (${Math.min(...wall).toFixed(2)}–${Math.max(...wall).toFixed(2)})  cpu ${median(cpu).toFixed(2)}`,
    );
  }
}
