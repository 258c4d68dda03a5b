import type { JsonValue } from '../../core/json.js';
import type { StatusRepo } from '../../store/types.js';
import { parseExpectedStatus } from './expected-status.js';
import { checkUrl, type CertificateInfo, type CheckResult, type ProbeOptions } from './http-probe.js';
import type { MonitorStore, StoredCheck } from './monitor-store.js';

/** The status row holding the certificate an https:// check last saw. */
export const certificateKey = (checkId: number): string => `monitor.certificate.${checkId}`;

export interface HostProberOptions {
  readonly store: MonitorStore;
  readonly status: StatusRepo;
  readonly host: string;
  readonly clock: () => number;
  readonly timeoutMs: number;
  readonly intervalMs: number;
  /** The URL of check 1 (the site's own). */
  readonly siteUrl: string;
  readonly probeOptions: Pick<ProbeOptions, 'localAddress' | 'ca'>;
  /** Whether a maintenance window is in force at a time (samples are marked, so uptime leaves them out). */
  readonly inMaintenance: (at: number) => Promise<boolean>;
}

/** The URL a check asks. */
export function checkTargetUrl(check: StoredCheck, siteUrl: string): string {
  return check.url ?? siteUrl;
}

/**
 * This host's checks: each probe stores the response time (a sample), this host's vote (down
 * since when, and why) for the quorum, and for https:// the certificate seen. Every host sharing
 * the store runs one prober (one process per host, by a lease named after the host).
 */
export class HostProber {
  private readonly failingSince = new Map<number, number>();
  private readonly nextAt = new Map<number, number>();

  constructor(private readonly options: HostProberOptions) {}

  /** Probes the checks that are due; returns how many were probed. */
  async round(checks: readonly StoredCheck[]): Promise<number> {
    const now = this.options.clock();
    let probed = 0;
    for (const check of checks) {
      if ((this.nextAt.get(check.id) ?? 0) > now) continue;
      await this.probe(check);
      probed += 1;
    }
    return probed;
  }

  /** Probes one check now and records what this host saw. */
  async probe(check: StoredCheck): Promise<CheckResult> {
    const { store, host, clock } = this.options;
    const started = clock();
    this.nextAt.set(check.id, started + this.options.intervalMs);
    const result = await checkUrl(
      {
        url: checkTargetUrl(check, this.options.siteUrl),
        expected: parseExpectedStatus(check.expectedStatus) ?? [],
        keyword: check.keyword,
        keywordAbsent: check.keywordAbsent,
        slowMs: check.slowMs,
      },
      { timeoutMs: this.options.timeoutMs, now: started, ...this.options.probeOptions },
    );
    const at = clock();
    const maintenance = await this.options.inMaintenance(at);
    await store.addSample(check.id, { at, host, ms: result.ms, outcome: result.up ? (result.slow ? 'slow' : 'up') : 'down', maintenance });
    let since: number | null = null;
    if (result.up) this.failingSince.delete(check.id);
    else {
      since = this.failingSince.get(check.id) ?? started;
      this.failingSince.set(check.id, since);
    }
    await store.vote(check.id, { host, at, down: !result.up, since, reason: result.up ? null : result.reason });
    if (result.certificate !== null) await this.options.status.set(certificateKey(check.id), certificateJson(result.certificate, at), at);
    return result;
  }

  /** Forgets the schedule (the module was turned on again: check at once). */
  reset(): void {
    this.nextAt.clear();
    this.failingSince.clear();
  }
}

function certificateJson(certificate: CertificateInfo, at: number): JsonValue {
  return {
    validTo: certificate.validTo,
    subject: certificate.subject,
    issuer: certificate.issuer,
    error: certificate.error,
    checkedAt: at,
  };
}

/** A stored certificate row, read leniently. */
export function readCertificate(value: JsonValue | undefined): (CertificateInfo & { checkedAt: number }) | null {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) return null;
  const { validTo, subject, issuer, error, checkedAt } = value;
  if (typeof validTo !== 'number' || typeof checkedAt !== 'number') return null;
  return {
    validTo,
    checkedAt,
    subject: typeof subject === 'string' ? subject : '',
    issuer: typeof issuer === 'string' ? issuer : '',
    error: typeof error === 'string' ? error : null,
  };
}
