import type { IncomingHttpHeaders } from 'node:http';
import type { RequestOrigin } from '../rest/rest-url.js';

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  // indexOf/slice rather than split(','): runs for every request and allocates no array.
  const comma = v.indexOf(',');
  return (comma === -1 ? v : v.slice(0, comma)).trim();
}

/** `host[:port]` (or `[v6]:port`) split; the port is whatever follows the last colon. */
function splitHost(host: string): { name: string; port: string } {
  const colon = host.startsWith('[') ? host.indexOf(':', host.indexOf(']')) : host.lastIndexOf(':');
  return colon === -1 ? { name: host, port: '' } : { name: host.slice(0, colon), port: host.slice(colon + 1) };
}

/**
 * Scheme, host and port of a request (a default port, 80 for http and 443 for https, is ''). `X-Forwarded-Proto`/`-Host` count only when the operator
 * trusts the proxy (SITEWARD_TRUST_PROXY); otherwise anyone could force https URLs.
 */
export function requestOrigin(headers: IncomingHttpHeaders, tls: boolean, trustProxy: boolean): RequestOrigin {
  let secure = tls;
  let host = first(headers.host) ?? '';
  if (trustProxy) {
    const proto = first(headers['x-forwarded-proto']);
    if (proto) secure = proto.toLowerCase() === 'https';
    const fwdHost = first(headers['x-forwarded-host']);
    if (fwdHost) host = fwdHost;
  }
  const { name, port } = splitHost(host);
  return { secure, hostname: name.toLowerCase(), port: port === (secure ? '443' : '80') ? '' : port };
}

/** Lower-case header map with repeated values joined by `,` (WordPress's `get_header`). */
export function flatHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
  // Usually every value is already one string (node:http joins repeats, except Set-Cookie):
  // then the object is used as it is instead of copied.
  let flat = true;
  for (const name in headers) {
    if (typeof headers[name] !== 'string') {
      flat = false;
      break;
    }
  }
  if (flat) return headers as Readonly<Record<string, string>>;
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return out;
}

/**
 * The client's address: the socket's, or, when the proxy is trusted, the last `X-Forwarded-For`
 * entry: the one the proxy appended itself. The entries before it are whatever the client sent,
 * so taking the first would let anyone pick a new address per request (and never be blocked).
 */
export function clientAddress(headers: IncomingHttpHeaders, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = headers['x-forwarded-for'];
    const entries = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',');
    const last = entries[entries.length - 1]?.trim();
    if (last) return last;
  }
  return socketAddress ?? '';
}
