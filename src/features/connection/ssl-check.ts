import type { ValidConnectionConfig } from './connection-config.js';

/** The `/recheck-ssl` answer (docs/spec/jetpack-v4-reference.md §3.6). */
export interface SslCheck {
  enabled: boolean;
  message: string;
}

/**
 * Can the site make HTTPS requests to the account service? Fetches the issuer's discovery
 * document over HTTPS with Node's normal certificate validation, bounded by the timeout.
 * A plain-http loopback issuer is a development setup: `enabled` false, saying so.
 */
export async function checkSsl(config: ValidConnectionConfig, fetchImpl: typeof fetch = fetch): Promise<SslCheck> {
  const issuer = new URL(config.issuer);
  if (issuer.protocol !== 'https:') {
    return {
      enabled: false,
      message: `The account service ${config.issuer} uses plain http (a loopback development setup), so HTTPS is not in use.`,
    };
  }
  const url = `${config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  try {
    const response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) return { enabled: false, message: `Response was not OK: ${response.status} ${text.slice(0, 200)}` };
    let issuerInDocument: unknown;
    try {
      issuerInDocument = (JSON.parse(text) as { issuer?: unknown }).issuer;
    } catch {
      return { enabled: false, message: 'Response was not OK: the discovery document is not JSON' };
    }
    if (issuerInDocument !== config.issuer) {
      return { enabled: false, message: `Response was not OK: the discovery document names another issuer` };
    }
    return { enabled: true, message: '' };
  } catch (error) {
    return { enabled: false, message: `HTTPS request failed: ${describe(error)}` };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
