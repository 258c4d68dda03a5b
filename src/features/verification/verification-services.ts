import { escapeHtml } from '../../core/html.js';

/** The verification services of the `verification-tools` module, in the reference's order. */
export const VERIFICATION_SERVICES = [
  { key: 'google', label: 'Google', metaName: 'google-site-verification' },
  { key: 'bing', label: 'Bing', metaName: 'msvalidate.01' },
  { key: 'pinterest', label: 'Pinterest', metaName: 'p:domain_verify' },
] as const;

export type VerificationServiceKey = (typeof VERIFICATION_SERVICES)[number]['key'];

/** The stored option `verification_services_codes`: a code per service ('' when none). */
export type VerificationCodes = Readonly<Record<VerificationServiceKey, string>>;

export const EMPTY_VERIFICATION_CODES: VerificationCodes = { google: '', bing: '', pinterest: '' };

/** Reads the stored option whatever shape it has (absent, corrupt): anything but a string counts as no code. */
export function readVerificationCodes(stored: unknown): VerificationCodes {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return EMPTY_VERIFICATION_CODES;
  const record = stored as Record<string, unknown>;
  const code = (key: VerificationServiceKey): string => {
    const value = record[key];
    return typeof value === 'string' ? value : '';
  };
  return { google: code('google'), bing: code('bing'), pinterest: code('pinterest') };
}

export type CodeValidation = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly message: string };

/**
 * The option validation for `google`, `bing`, `pinterest` (docs/spec/jetpack-v4-reference.md §3.11 "alphanum"):
 * letters, digits, `-` and `_` only; '' clears the code.
 */
export function validateVerificationCode(param: string, value: unknown): CodeValidation {
  if (value === '') return { ok: true, value: '' };
  if (typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value)) return { ok: true, value };
  return { ok: false, message: `${param} must be an alphanumeric string.` };
}

/** The `<meta>` tags for the home page's `<head>`, only for services with a code. Validated codes need no escaping, but stored values may predate validation or come from elsewhere. */
export function verificationMetaTags(codes: VerificationCodes): string[] {
  return VERIFICATION_SERVICES.filter((s) => codes[s.key] !== '').map(
    (s) => `<meta name="${s.metaName}" content="${escapeHtml(codes[s.key])}" />`,
  );
}

export type ServicesAnswer =
  | {
      readonly kind: 'verified';
      readonly status: 200;
      readonly body: { readonly code: 'success'; readonly message: string; readonly services: string[] };
    }
  /** No code set: the route answers the catalogue's 404 `empty` (src/features/jetpack/errors.ts). */
  | { readonly kind: 'empty' };

/** `GET /module/verification-tools/services` for an active module (docs/spec/jetpack-v4-reference.md §3.21). */
export function verificationServicesAnswer(codes: VerificationCodes): ServicesAnswer {
  const services = VERIFICATION_SERVICES.filter((s) => codes[s.key] !== '').map((s) => s.label);
  if (services.length === 0) return { kind: 'empty' };
  return {
    kind: 'verified',
    status: 200,
    body: { code: 'success', message: `Your site is verified with ${joinNames(services)}.`, services },
  };
}

/** "A", "A and B", "A, B and C". */
function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
