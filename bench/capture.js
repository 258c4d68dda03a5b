// Raw HTTP exchanges for the identical-bytes floor: sends a scenario's request as the exact bytes
// autocannon sends (its own request builder) over a plain TCP socket and keeps the response as
// it came off the wire: the status line, every header in order and case, and the body. The
// replay server (baseline-server.js) answers with these bytes, so the floor moves what
// Siteward moves; `sameResponse` proves it did.
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import net from 'node:net';

const require = createRequire(import.meta.url);
// The builder autocannon uses for its load requests: the captured answer is the answer to the
// very bytes the load sends (Host, Connection: keep-alive, Content-Length included).
const requestBuilder = require('autocannon/lib/httpRequestBuilder.js');

/** The bytes autocannon sends for `req` ({ method, path, headers, body }) to `baseUrl`. */
export function requestBytes(baseUrl, req) {
  const url = new URL(baseUrl);
  return requestBuilder({ hostname: url.hostname, port: Number(url.port) })({
    method: req.method,
    path: req.path,
    headers: { ...req.headers },
    body: req.body,
  });
}

/** Splits a response head into its status line and a flat [name, value, …] list (raw case and order). */
function parseHead(head) {
  const [statusLine, ...lines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
    headers.push(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return { statusLine, statusCode: Number(match[1]), statusMessage: match[2], headers };
}

const headerValue = (headers, name) => {
  for (let i = 0; i < headers.length; i += 2) if (headers[i].toLowerCase() === name) return headers[i + 1];
  return undefined;
};

/**
 * Length of a complete chunked body at the start of `buf` and its decoded bytes, or null while
 * incomplete. (Siteward sends Content-Length on the REST path; this is for any other answer.)
 */
function dechunk(buf) {
  const parts = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(buf.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error('malformed chunk size');
    if (size === 0) {
      const end = buf.indexOf('\r\n\r\n', eol);
      return end < 0 ? null : { length: end + 4, body: Buffer.concat(parts) };
    }
    if (buf.length < eol + 2 + size + 2) return null;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * Sends one request as autocannon would and resolves with the response: { raw (every byte
 * received for it), head, statusLine, statusCode, statusMessage, headers (flat list), body }.
 */
export function rawExchange(baseUrl, req, { timeoutMs = 5000 } = {}) {
  const url = new URL(baseUrl);
  const bytes = requestBytes(baseUrl, req);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (error, value) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    socket.setTimeout(timeoutMs, () => finish(new Error(`timeout after ${timeoutMs} ms: ${req.method} ${req.path}`)));
    socket.on('error', finish);
    socket.on('close', () => finish(new Error(`connection closed before a full response to ${req.method} ${req.path}`)));
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      const headEnd = buf.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      try {
        const head = buf.subarray(0, headEnd).toString('latin1');
        const parsed = parseHead(head);
        const start = headEnd + 4;
        const length = headerValue(parsed.headers, 'content-length');
        const chunked = /chunked/i.test(headerValue(parsed.headers, 'transfer-encoding') ?? '');
        let body;
        let end;
        if (length !== undefined) {
          if (buf.length < start + Number(length)) return;
          end = start + Number(length);
          body = buf.subarray(start, end);
        } else if (chunked) {
          const done = dechunk(buf.subarray(start));
          if (!done) return;
          end = start + done.length;
          body = done.body;
        } else if (parsed.statusCode === 204 || parsed.statusCode === 304) {
          end = start;
          body = Buffer.alloc(0);
        } else {
          throw new Error(`${req.method} ${req.path}: response without Content-Length or chunked body`);
        }
        finish(null, { raw: Buffer.from(buf.subarray(0, end)), head, ...parsed, chunked, body: Buffer.from(body) });
      } catch (error) {
        finish(error);
      }
    });
    socket.write(bytes);
  });
}

/** The raw response with the Date header's value blanked: what must match byte for byte. */
export function withoutDate(raw) {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = raw
    .subarray(0, headEnd)
    .toString('latin1')
    .replace(/\r\ndate:[^\r]*/i, '\r\nDate: <regenerated>');
  return Buffer.concat([Buffer.from(head, 'latin1'), raw.subarray(headEnd)]);
}

/**
 * Null when `replayed` is byte for byte `captured` apart from the Date value; otherwise a
 * description of the first difference.
 */
export function responseDifference(captured, replayed) {
  const a = withoutDate(captured.raw);
  const b = withoutDate(replayed.raw);
  if (a.equals(b)) return null;
  // Described from the raw bytes (what went over the wire), not from the parsed fields.
  const split = (raw) => {
    const end = raw.indexOf('\r\n\r\n');
    return { lines: raw.subarray(0, end).toString('latin1').split('\r\n'), rest: raw.subarray(end + 4) };
  };
  const x = split(captured.raw);
  const y = split(replayed.raw);
  for (let i = 0; i < Math.max(x.lines.length, y.lines.length); i++) {
    const [l1, l2] = [x.lines[i], y.lines[i]];
    if (/^date:/i.test(l1 ?? '') && /^date:/i.test(l2 ?? '')) continue;
    if (l1 !== l2)
      return `head line ${i + 1}: Siteward sent ${JSON.stringify(l1 ?? '(none)')}, the replay ${JSON.stringify(l2 ?? '(none)')}`;
  }
  if (!x.rest.equals(y.rest)) return `bodies differ (${x.rest.length} vs ${y.rest.length} bytes after the head)`;
  return `framing differs (${a.length} vs ${b.length} bytes on the wire)`;
}
