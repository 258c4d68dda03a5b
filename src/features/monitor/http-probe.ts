import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** One check of the site: up (any answer below 500), or down with why. */
export type ProbeResult =
  | { readonly up: true; readonly status: number }
  | { readonly up: false; readonly kind: 'status' | 'timeout' | 'connection'; readonly reason: string };

export type Probe = (url: string, timeoutMs: number) => Promise<ProbeResult>;

/**
 * GET on a fresh connection (no keep-alive pool: a pooled socket could hide that the server
 * stopped accepting connections). Redirects and 4xx count as up: the server is answering.
 * The timeout covers connecting and receiving the response head.
 */
export const httpProbe: Probe = (url, timeoutMs) =>
  new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ up: false, kind: 'connection', reason: 'invalid URL' });
      return;
    }
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = request(target, { method: 'GET', agent: false, headers: { 'user-agent': 'Siteward-Monitor/1', connection: 'close' } }, (res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      finish(status >= 500 ? { up: false, kind: 'status', reason: `HTTP ${status}` } : { up: true, status });
    });
    const timer = setTimeout(() => finish({ up: false, kind: 'timeout', reason: `timeout after ${timeoutMs / 1000} s` }), timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ up: false, kind: 'connection', reason: error.code ?? error.message }));
    req.end();
  });
