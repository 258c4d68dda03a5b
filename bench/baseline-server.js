// The floors to compare Siteward against, in one bare node:http process (one core's worth of
// work, like Siteward; prints {"port":N} on stdout once listening). Neither does any routing,
// auth, validation or storage:
// - identical bytes: `/replay/<id>/…` answers with the response registered as <id> (over the
//   IPC channel), which is Siteward's own answer to that scenario's request captured at the
//   start of the scenario: the same status line, every header name and value in Siteward's
//   order and case, the same body. Only the Date value is regenerated per response (same format
//   as node's). Whatever the request (GET, POST with a body, OPTIONS), the registered answer is
//   sent: the floor moves exactly the bytes Siteward moves.
// - body only (issue 6's floor, kept for comparison): `/<status>/<bytes>` answers that status
//   and a JSON body of exactly that many bytes with 2 headers (Content-Type, Content-Length).
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

// The Date value, recomputed at most once per second as node:http does for its own Date header.
let dateSecond = 0;
let dateValue = '';
function httpDate() {
  const now = Date.now();
  if (now - dateSecond >= 1000 || now < dateSecond) {
    dateSecond = now - (now % 1000);
    dateValue = new Date(now).toUTCString();
  }
  return dateValue;
}

/**
 * Registered answers by id: the flat [name, value, …] header list exactly as captured (so node
 * writes them in that order and case, and adds none of its own: Connection, Keep-Alive and Date
 * are in the list), the index of the Date value in it, and the body.
 */
const replays = new Map();
function register({ id, statusCode, statusMessage, headers, body, chunked }) {
  const list = [...headers];
  let dateAt = -1;
  for (let i = 0; i < list.length; i += 2) if (list[i].toLowerCase() === 'date') dateAt = i + 1;
  if (chunked) {
    // node re-frames a chunked body itself; the captured framing cannot be replayed as is.
    throw new Error(`replay ${id}: chunked responses are not supported (Siteward sent Transfer-Encoding: chunked)`);
  }
  replays.set(id, { statusCode, statusMessage, headers: list, dateAt, body: Buffer.from(body, 'base64') });
}

function replay(res, r) {
  // Safe to reuse the one list: writeHead serializes it synchronously.
  if (r.dateAt >= 0) r.headers[r.dateAt] = httpDate();
  res.writeHead(r.statusCode, r.statusMessage, r.headers);
  res.end(r.body);
}

const server = http.createServer((req, res) => {
  // Read the request body to the end before answering, as Siteward must for POST.
  req.resume();
  req.on('end', () => {
    const url = req.url;
    if (url.startsWith('/replay/')) {
      const r = replays.get(Number.parseInt(url.slice(8), 10));
      if (r) replay(res, r);
      else res.writeHead(404).end();
      return;
    }
    const [, status, bytes] = /^\/(\d{3})\/(\d+)/.exec(url) ?? [];
    if (!status) {
      res.writeHead(404).end();
      return;
    }
    const body = bodyFor(Number(bytes));
    res.writeHead(Number(status), { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': body.length });
    res.end(body);
  });
});

// Without a Date in a registered list node would add its own, after Connection/Keep-Alive: the
// captured lists always have one (Siteward's node:http sends it), so this never applies to them.
server.sendDate = true;
// Node's default keep-alive timeout (5 s) is shorter than a load run's idle gaps; keep sockets.
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});

process.on('message', (msg) => {
  try {
    register(msg);
    process.send({ id: msg.id, ok: true });
  } catch (error) {
    process.send({ id: msg.id, ok: false, error: error.message });
  }
});

// The parent holds our stdin open: when it goes away (even by SIGKILL), so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
