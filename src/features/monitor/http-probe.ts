import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { statusAccepted, type StatusRange } from './expected-status.js';

/** One check of the site: up, or down with why. */
export type ProbeResult =
  | { readonly up: true; readonly status: number }
  | { readonly up: false; readonly kind: 'status' | 'timeout' | 'connection' | 'keyword' | 'certificate'; readonly reason: string };

export type Probe = (url: string, timeoutMs: number) => Promise<ProbeResult>;

/** What a check asks beyond "does it answer". */
export interface CheckTarget {
  readonly url: string;
  readonly expected: readonly StatusRange[];
  /** Text that must appear in the body (or must not, with `keywordAbsent`); null: the body is not read. */
  readonly keyword: string | null;
  readonly keywordAbsent: boolean;
  /** Slower than this many ms counts as "slow" (still up); null: never slow. */
  readonly slowMs: number | null;
}

/** The certificate of an https:// check as seen at the check. */
export interface CertificateInfo {
  readonly validTo: number;
  readonly subject: string;
  readonly issuer: string;
  /** Why the chain was not trusted (e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`), or null. */
  readonly error: string | null;
}

export type CheckResult = ProbeResult & {
  /** Milliseconds until the response head arrived; null when none did. */
  readonly ms: number | null;
  readonly slow: boolean;
  readonly certificate: CertificateInfo | null;
};

export interface ProbeOptions {
  readonly timeoutMs: number;
  /** Milliseconds since the epoch: the certificate's expiry is judged against it. */
  readonly now: number;
  /** The local address outgoing checks leave from (SITEWARD_MONITOR_SOURCE_ADDRESS). */
  readonly localAddress?: string;
  /** Extra trusted certificate authorities (PEM), beside the system's. */
  readonly ca?: readonly string[];
  /** Measures response times (performance.now by default). */
  readonly elapsed?: () => number;
}

/** The body is read only as far as this for a keyword (a page bigger than it is judged on its start). */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * GET on a fresh connection (no keep-alive pool: a pooled socket could hide that the server
 * stopped accepting connections). The timeout covers connecting, the response head and, when a
 * keyword is asked, the body. For https:// the certificate is read even when untrusted, so an
 * expired one is reported as expired (judged by `now`) rather than as a bare TLS error.
 */
export function checkUrl(target: CheckTarget, options: ProbeOptions): Promise<CheckResult> {
  const elapsed = options.elapsed ?? (() => performance.now());
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      resolve({ up: false, kind: 'connection', reason: 'invalid URL', ms: null, slow: false, certificate: null });
      return;
    }
    const https = url.protocol === 'https:';
    const started = elapsed();
    let ms: number | null = null;
    let certificate: CertificateInfo | null = null;
    let settled = false;
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      const slow = result.up && ms !== null && target.slowMs !== null && ms > target.slowMs;
      resolve({ ...result, ms, slow, certificate });
    };
    const onResponse = (res: IncomingMessage): void => {
      ms = Math.round(elapsed() - started);
      const status = res.statusCode ?? 0;
      if (https) {
        certificate = readCertificate(res.socket as TLSSocket);
        const refusal = certificateRefusal(certificate, options.now);
        if (refusal !== null) {
          res.resume();
          return finish({ up: false, kind: 'certificate', reason: refusal });
        }
      }
      if (!statusAccepted(target.expected, status)) {
        res.resume();
        return finish({ up: false, kind: 'status', reason: `HTTP ${status}` });
      }
      if (target.keyword === null) {
        res.resume();
        return finish({ up: true, status });
      }
      const keyword = target.keyword;
      const chunks: Buffer[] = [];
      let size = 0;
      const judge = (): void => {
        const found = Buffer.concat(chunks).toString('utf8').includes(keyword);
        if (found === !target.keywordAbsent) finish({ up: true, status });
        else
          finish({
            up: false,
            kind: 'keyword',
            reason: target.keywordAbsent ? `keyword "${keyword}" found` : `keyword "${keyword}" missing`,
          });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_BODY_BYTES) judge();
      });
      res.on('end', judge);
      res.on('error', (error: NodeJS.ErrnoException) => finish({ up: false, kind: 'connection', reason: error.code ?? error.message }));
    };
    const request = https ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: 'GET',
        agent: false,
        headers: { 'user-agent': 'Siteward-Monitor/1', connection: 'close' },
        ...(options.localAddress !== undefined ? { localAddress: options.localAddress } : {}),
        // Trust is judged after the handshake (certificateRefusal) so that the expiry can be told.
        ...(https ? { rejectUnauthorized: false, ...(options.ca !== undefined ? { ca: [...options.ca] } : {}) } : {}),
      },
      onResponse,
    );
    const timer = setTimeout(
      () => finish({ up: false, kind: 'timeout', reason: `timeout after ${options.timeoutMs / 1000} s` }),
      options.timeoutMs,
    );
    req.on('error', (error: NodeJS.ErrnoException) => finish({ up: false, kind: 'connection', reason: error.code ?? error.message }));
    req.end();
  });
}

function readCertificate(socket: TLSSocket): CertificateInfo | null {
  const peer = socket.getPeerCertificate();
  if (peer === null || typeof peer.valid_to !== 'string') return null;
  const error = socket.authorizationError;
  return {
    validTo: Date.parse(peer.valid_to),
    subject: typeof peer.subject?.CN === 'string' ? peer.subject.CN : '',
    issuer: typeof peer.issuer?.CN === 'string' ? peer.issuer.CN : '',
    error:
      error === null || error === undefined
        ? null
        : String(error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : error),
  };
}

/** Why a certificate makes the check fail (expired by `now`, or untrusted), or null. */
export function certificateRefusal(certificate: CertificateInfo | null, now: number): string | null {
  if (certificate === null) return 'no certificate';
  if (certificate.validTo <= now) return `certificate expired on ${new Date(certificate.validTo).toISOString()}`;
  // Date errors are judged by `now` above, not by the machine's clock.
  if (certificate.error !== null && certificate.error !== 'CERT_HAS_EXPIRED' && certificate.error !== 'CERT_NOT_YET_VALID')
    return `certificate invalid: ${certificate.error}`;
  return null;
}

/** The plain check of earlier versions, kept for callers that only ask "does it answer". */
export const httpProbe: Probe = (url, timeoutMs) =>
  checkUrl({ url, expected: [[100, 499]], keyword: null, keywordAbsent: false, slowMs: null }, { timeoutMs, now: Date.now() }).then((r) =>
    r.up ? { up: true, status: r.status } : { up: false, kind: r.kind, reason: r.reason },
  );
