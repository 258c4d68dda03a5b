/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, what every authenticator app reads from an
 * `otpauth://` URI) through otplib, and recovery codes.
 */
import { createHmac, randomBytes } from 'node:crypto';

// otplib and qrcode are imported where a code is made or checked, not at start: most processes
// never enrol anyone, and loading them costs a worker memory it would keep (docs/performance.md).

export const RECOVERY_CODE_COUNT = 10;
const PERIOD_SECONDS = 30;
/** 32 symbols (RFC 4648 base32, lower case): a byte modulo 32 is unbiased. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export async function newTotpSecret(): Promise<string> {
  const { generateSecret } = await import('otplib');
  return generateSecret();
}

export async function totpUri(secret: string, issuer: string, account: string): Promise<string> {
  const { generateURI } = await import('otplib');
  return generateURI({ issuer, label: account, secret });
}

/** The QR code of an `otpauth://` URI as an SVG data URL: drawn here, no third party sees the secret. */
export async function qrDataUrl(uri: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/**
 * The time step a 6-digit `code` belongs to at `nowMs` (one step of clock drift either way), or
 * null. Steps at or before `afterStep` are refused: a code is accepted once.
 */
export async function totpStep(secret: string, code: string, nowMs: number, afterStep: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const { verify } = await import('otplib');
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: PERIOD_SECONDS,
    afterTimeStep: afterStep,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Ten codes of ten characters (50 bits each), shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored of a recovery code: an HMAC under a key derived from the master secret. */
export function recoveryHash(key: Uint8Array, code: string): string {
  return createHmac('sha256', key).update(normalizeCode(code)).digest('hex');
}

/** Spaces and dashes are how people copy codes; case does not matter. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}
