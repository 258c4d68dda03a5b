import type { PluginRegister } from '../../src/api.js';
import { type App } from '../../src/app.js';
import type { Store } from '../../src/store/types.js';
export interface TestRequest {
    method?: string;
    /** Path with query, e.g. `/wp-json/jetpack/v4/module/all?x=1`. */
    path: string;
    headers?: Record<string, string>;
    /** A string or Buffer is sent as is; an object is sent as JSON with `Content-Type: application/json`. */
    body?: string | Buffer | object;
}
export interface TestResponse {
    status: number;
    /** Lower-case header names. */
    headers: Record<string, string | undefined>;
    text: string;
    /** The body parsed as JSON, or undefined when it is not JSON. */
    json: unknown;
}
export interface LoggedIn {
    userId: number;
    login: string;
    password: string;
    /** `name=value` for a Cookie header. */
    cookie: string;
    /** A valid `wp_rest` nonce for this session. */
    nonce: string;
}
export interface TestApp {
    readonly app: App;
    readonly store: Store;
    /** Developer warnings raised so far. */
    readonly warnings: string[];
    request(req: TestRequest): Promise<TestResponse>;
    /** Creates a user with the role and logs it in through POST /login. */
    loginAs(role: string, opts?: {
        login?: string;
        remember?: boolean;
    }): Promise<LoggedIn>;
    /** Headers for an authenticated REST call (cookie + X-WP-Nonce). */
    auth(user: LoggedIn): Record<string, string>;
    close(): Promise<void>;
}
export interface TestAppOptions {
    env?: Record<string, string>;
    plugins?: PluginRegister[];
    /** Reuse a data directory (e.g. to test a restart); it is then not deleted on close. */
    dataDir?: string;
}
/**
 * Starts a real Siteward instance in-process (fresh SQLite data directory, or the PostgreSQL
 * database in SITEWARD_DATABASE_URL when given) and talks to it through Fastify's inject.
 */
export declare function createTestApp(options?: TestAppOptions): Promise<TestApp>;
