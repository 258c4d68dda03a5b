/**
 * Test helper (not a test file): calls the `jetpack/v4` routes on a test app as a given user, and the
 * expected wire bodies of the permission errors.
 */
import type { LoggedIn, TestApp, TestResponse } from '../../../../test/helpers/test-app.js';

export const ROOT = '/wp-json/jetpack/v4';

export interface CallOptions {
  /** Logged-in user (cookie + nonce); absent: anonymous. */
  as?: LoggedIn;
  /** An object is sent as JSON; a string as is. */
  body?: object | string;
  headers?: Record<string, string>;
}

/** `method` `ROOT + path` as `as`. */
export function call(t: TestApp, method: string, path: string, opts: CallOptions = {}): Promise<TestResponse> {
  return t.request({
    method,
    path: `${ROOT}${path}`,
    headers: { ...(opts.as ? t.auth(opts.as) : {}), ...opts.headers },
    ...(opts.body !== undefined && { body: opts.body }),
  });
}

export const PERMISSION_MESSAGE =
  'You do not have the correct user permissions to perform this action. Please contact your site admin if you think this is a mistake.';

/** The wire body of a permission failure. */
export function permissionBody(code: string, status: 401 | 403) {
  return { code, message: PERMISSION_MESSAGE, data: { status } };
}

export const NOT_FOUND = { code: 'not_found', message: 'The requested Jetpack module was not found.', data: { status: 404 } };
