// One-off HTTP requests (readiness probe, login, measuring response sizes). Not used for load:
// that runs in a separate process (load.js) so the client never shares a core with this one.
import { Buffer } from 'node:buffer';
import http from 'node:http';

/** Sends one request; resolves with status, headers, the raw body and its byte length. */
export function request(url, { method = 'GET', headers = {}, body, timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: payload ? { 'Content-Length': payload.length, ...headers } : headers,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode, headers: res.headers, bytes: raw.length, text: raw.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Parses a JSON body, with the start of the text in the error when it is not JSON. */
export function json(res) {
  try {
    return JSON.parse(res.text);
  } catch {
    throw new Error(`expected JSON, got ${res.status}: ${res.text.slice(0, 200)}`);
  }
}
