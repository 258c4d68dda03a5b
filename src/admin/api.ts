/**
 * Every call of the page goes through @wordpress/api-fetch: its root-URL middleware (the REST
 * root of Initial_State, request-relative), its nonce middleware (the REST nonce), and its own
 * refresh of the nonce on `rest_cookie_invalid_nonce` through the rest-nonce endpoint. What
 * fails is turned into words a person understands, telling a network failure, an answer that is
 * not JSON, an expired login and an API refusal apart.
 */
import apiFetch from '@wordpress/api-fetch';
import { __, sprintf } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';

export const NONCE_ENDPOINT = addQueryArgs('/wp-admin/admin-ajax.php', { action: 'rest-nonce' });

let configured = false;

export function configureApi(root: string, nonce: string): void {
  if (configured) return;
  configured = true;
  apiFetch.use(apiFetch.createRootURLMiddleware(root));
  apiFetch.nonceMiddleware = apiFetch.createNonceMiddleware(nonce);
  apiFetch.use(apiFetch.nonceMiddleware);
  apiFetch.nonceEndpoint = NONCE_ENDPOINT;
}

export type ApiErrorKind = 'network' | 'not-json' | 'login' | 'api';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly code: string,
    readonly status?: number,
    /** Per-argument messages of a 400 `rest_invalid_param` (argument → message). */
    readonly params: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

interface RawError {
  code?: unknown;
  message?: unknown;
  data?: { status?: unknown; params?: unknown } | null;
}

/** What api-fetch rejected with, as an ApiError. */
export function toApiError(raw: unknown): ApiError {
  const e = (raw && typeof raw === 'object' ? raw : {}) as RawError;
  const code = typeof e.code === 'string' ? e.code : 'unknown';
  const status = typeof e.data?.status === 'number' ? e.data.status : undefined;
  if (code === 'fetch_error')
    return new ApiError('network', __('The server could not be reached. Check your connection and try again.', 'siteward'), code);
  if (code === 'invalid_json')
    return new ApiError(
      'not-json',
      __(
        'The server answered with something that is not the expected data (perhaps an error page from a proxy). Try again in a moment.',
        'siteward',
      ),
      code,
    );
  // The nonce refresh failed too: the login is gone.
  if (code === 'rest_cookie_invalid_nonce' || code === 'rest_not_logged_in')
    return new ApiError('login', __('Your login has expired. Taking you to the login page…', 'siteward'), code, status);
  // translators: %s: the error code of the answer.
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : sprintf(__('The request failed (%s).', 'siteward'), code);
  const params: Record<string, string> = {};
  if (e.data?.params && typeof e.data.params === 'object') {
    for (const [key, value] of Object.entries(e.data.params as Record<string, unknown>)) if (typeof value === 'string') params[key] = value;
  }
  return new ApiError('api', message, code, status, params);
}

/** Sends the browser to the login page, to come back here (same screen) afterwards. */
export function goToLogin(): void {
  const back = window.location.pathname + window.location.search + window.location.hash;
  window.location.assign(addQueryArgs('/login', { redirect_to: back }));
}

/** An api-fetch call whose failures are ApiErrors; an expired login leads to the login page. */
export async function api<T>(path: string, init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; data?: unknown } = {}): Promise<T> {
  try {
    return await apiFetch<T>({ path, method: init.method ?? 'GET', ...(init.data === undefined ? {} : { data: init.data }) });
  } catch (raw) {
    const error = toApiError(raw);
    if (error.kind === 'login') goToLogin();
    throw error;
  }
}

export const jp = (path: string) => `/jetpack/v4/${path}`;

/** One page of a WordPress-style collection: its items and the `X-WP-Total`/`X-WP-TotalPages` headers. */
export interface CollectionPage<T> {
  readonly items: T[];
  readonly total: number;
  readonly totalPages: number;
}

/**
 * A GET of a paged collection (api-fetch without parsing, to read the paging headers). Unparsed,
 * api-fetch neither refreshes an expired nonce nor turns a refusal into an error: an expired
 * nonce is refreshed by one parsed call (which does), then the page is asked once more.
 */
export async function apiPage<T>(path: string, retried = false): Promise<CollectionPage<T>> {
  let error: ApiError;
  try {
    const response = await apiFetch<T[], false>({ path, parse: false });
    const items = (await response.json()) as T[];
    return {
      items,
      total: Number(response.headers.get('X-WP-Total') ?? items.length),
      totalPages: Number(response.headers.get('X-WP-TotalPages') ?? 1),
    };
  } catch (raw) {
    const body: unknown = raw instanceof Response ? await raw.json().catch(() => ({ code: 'invalid_json' })) : raw;
    error = toApiError(body);
  }
  if (error.code === 'rest_cookie_invalid_nonce' && !retried) {
    await api('/siteward/v1');
    return apiPage(path, true);
  }
  if (error.kind === 'login') goToLogin();
  throw error;
}
