import type { StatusRepo } from '../../store/types.js';
import { certificateKey, readCertificate } from './host-prober.js';
import type { MonitorEvent } from './notifier.js';
import { DAY_MS } from '../../core/time.js';

/** Days before a certificate's expiry when a warning goes out, once each. */
export const CERTIFICATE_WARNING_DAYS = [14, 7, 1] as const;
const warnedKey = (checkId: number): string => `monitor.certificate-warned.${checkId}`;

/**
 * The certificate warning due for a check now, or null; remembers it as sent. A renewed
 * certificate (another expiry) starts over. An expired one is a downtime, not a warning.
 */
export async function dueCertificateWarning(status: StatusRepo, checkId: number, url: string, now: number): Promise<MonitorEvent | null> {
  const certificate = readCertificate((await status.get(certificateKey(checkId)))?.value);
  if (certificate === null || certificate.validTo <= now) return null;
  const daysLeft = Math.ceil((certificate.validTo - now) / DAY_MS);
  const due = CERTIFICATE_WARNING_DAYS.filter((days) => daysLeft <= days);
  if (due.length === 0) return null;
  const threshold = Math.min(...due);
  const warned = (await status.get(warnedKey(checkId)))?.value;
  const previous = warned !== null && typeof warned === 'object' && !Array.isArray(warned) ? warned : {};
  if (previous.validTo === certificate.validTo && typeof previous.threshold === 'number' && previous.threshold <= threshold) return null;
  await status.set(warnedKey(checkId), { validTo: certificate.validTo, threshold }, now);
  return { kind: 'certificate', url, at: now, validTo: certificate.validTo, daysLeft };
}
