// Load generator, run as a separate process so it never shares an event loop with the
// orchestrator. Usage: node bench/load.js '<json spec>'
//   spec: { url, method?, headers?, body?, requests?, connectionRequests?, connections, duration, warmup?, settleMs? }
//   connectionRequests: one request list per connection (connection i cycles through list
//   i mod n) instead of `requests` for all, e.g. each connection toggling its own module.
// Runs an uncounted warm-up (JIT, caches, keep-alive sockets), then the measured run, and
// prints autocannon's result as one JSON line on stdout.
import { setTimeout } from 'node:timers';
import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';

const spec = JSON.parse(process.argv[2] ?? '{}');
if (!spec.url) {
  console.error('load.js: spec.url is required');
  process.exit(2);
}

// Bounded whatever happens on the other side: warm-up + run + a generous margin.
const limitMs = ((spec.warmup ?? 0) + spec.duration + 30) * 1000 + (spec.settleMs ?? 0);
setTimeout(() => {
  console.error(`load.js: no result after ${limitMs / 1000} s, giving up`);
  process.exit(3);
}, limitMs).unref();

// The parent holds our stdin open: if it dies, stop loading the machine.
process.stdin.on('end', () => process.exit(4));
process.stdin.on('error', () => process.exit(4));
process.stdin.resume();

// autocannon's own latency histogram holds whole milliseconds, so a 1 ms floor p99 made 2 ms read
// as 2×. Each response's time is measured by autocannon with process.hrtime (fractional ms): it is
// recorded here again in microseconds (issue 26 item 3).
const MAX_US = 60_000_000;

function run(duration, micros) {
  const lists = spec.connectionRequests;
  let nextList = 0;
  const instance = autocannon({
    ...(lists && { setupClient: (client) => client.setRequests(lists[nextList++ % lists.length]) }),
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers ?? {},
    body: spec.body,
    requests: lists ? lists[0] : spec.requests,
    connections: spec.connections,
    pipelining: 1,
    duration,
    timeout: 10,
  });
  if (micros)
    instance.on('response', (_client, _status, _bytes, ms) => micros.recordValue(Math.min(MAX_US, Math.max(1, Math.round(ms * 1000)))));
  return instance;
}

function percentilesUs(histogram) {
  return {
    p50: histogram.getValueAtPercentile(50),
    p90: histogram.getValueAtPercentile(90),
    p99: histogram.getValueAtPercentile(99),
    p999: histogram.getValueAtPercentile(99.9),
    max: histogram.maxValue,
    count: histogram.totalCount,
  };
}

try {
  if (spec.warmup > 0) await run(spec.warmup);
  // Writes sent just before the warm-up ended may still be running on the server; a measured
  // toggle overtaken by one of them would be answered 409. Let them finish first.
  if (spec.settleMs > 0) await new Promise((resolve) => setTimeout(resolve, spec.settleMs));
  // Tells the parent the measured run starts now (it reads the servers' CPU time here).
  process.stdout.write('{"phase":"measure"}\n');
  const micros = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: MAX_US, numberOfSignificantValueDigits: 3 });
  const result = await run(spec.duration, micros);
  result.latencyUs = percentilesUs(micros);
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
} catch (error) {
  console.error(`load.js: ${error?.stack ?? error}`);
  process.exit(1);
}
