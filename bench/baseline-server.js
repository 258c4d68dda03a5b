// The floor to compare Siteward against: a bare node:http server that answers every request
// with a precomputed JSON body. GET /<status>/<bytes> → that status and a body of exactly that
// many bytes, so each scenario is compared with a server that moves the same payload but does
// no routing, auth, validation or storage. Run as its own process (one core's worth of work,
// like Siteward); prints {"port":N} on stdout once listening.
import { Buffer } from 'node:buffer';
import http from 'node:http';

/** A valid JSON text of exactly `bytes` bytes (ASCII, so bytes = characters). */
function jsonOfSize(bytes) {
  if (bytes >= 10) return `{"pad":"${'x'.repeat(bytes - 10)}"}`;
  return '1'.repeat(bytes); // tiny sizes: a JSON number
}

const bodies = new Map();
function bodyFor(bytes) {
  let body = bodies.get(bytes);
  if (!body) bodies.set(bytes, (body = Buffer.from(jsonOfSize(bytes))));
  return body;
}

const server = http.createServer((req, res) => {
  const [, status, bytes] = /^\/(\d{3})\/(\d+)/.exec(req.url) ?? [];
  // Read the request body to the end before answering, as Siteward must for POST.
  req.resume();
  req.on('end', () => {
    if (!status) {
      res.writeHead(404).end();
      return;
    }
    const body = bodyFor(Number(bytes));
    res.writeHead(Number(status), { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': body.length });
    res.end(body);
  });
});

// Node's default keep-alive timeout (5 s) is shorter than a load run's idle gaps; keep sockets.
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});

// The parent holds our stdin open: when it goes away (even by SIGKILL), so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
