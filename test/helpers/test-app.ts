import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import type { PluginRegister } from '../../src/plugins/api.js';
import { request as httpRequest } from 'node:http';
export { freePort } from './free-port.js';
import { createApp, type App } from '../../src/compose.js';
import { loadConfig } from '../../src/settings.js';
import type { Store } from '../../src/store/types.js';
import type { Feature } from '../../src/features/contract.js';
import { extractRestRoute } from '../../src/http/rest-route.js';
import { requestOrigin } from '../../src/http/request-origin.js';

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
  loginAs(role: string, opts?: { login?: string; remember?: boolean }): Promise<LoggedIn>;
  /** Headers for an authenticated REST call (cookie + X-WP-Nonce). */
  auth(user: LoggedIn): Record<string, string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  plugins?: PluginRegister[];
  /** Reuse a data directory (e.g. to test a restart); it is then not deleted on close. */
  dataDir?: string;
  /** Features instead of the built-in list. */
  features?: readonly Feature[];
  /** Milliseconds since the epoch, for the app's jobs and features. */
  clock?: () => number;
  /** Start the background-job runner (default true); false lets a test call `app.jobs.tick()` itself. */
  startJobs?: boolean;
  /** A pino logger to capture what the app logs (default: none). */
  logger?: PinoLogger;
  /**
   * Listen on this port instead of a random one: with `SITEWARD_HOME_URL=http://127.0.0.1:<port>`
   * (see `freePort`), every URL the app builds (REST root, configure and connect URLs) is the real
   * socket's, which a browser test needs.
   */
  port?: number;
}

let counter = 0;

/** The app of a test with its own data directory (removed by `dispose` unless it was given). */
async function startApp(options: TestAppOptions, warnings: string[]): Promise<{ app: App; dispose(): void }> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'siteward-test-'));
  const dispose = () => {
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const config = loadConfig({
    env: {
      SITEWARD_DATA_DIR: dataDir,
      SITEWARD_HOME_URL: 'http://example.org',
      SITEWARD_SECRET: 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      LOG_LEVEL: 'silent',
      ...options.env,
    },
    cwd: dataDir,
    configFile: null,
  });
  try {
    const app = await createApp(config, {
      logger: options.logger ?? false,
      cwd: dataDir,
      plugins: options.plugins,
      features: options.features,
      clock: options.clock,
      startJobs: options.startJobs,
      onWarning: (w) => warnings.push(w),
    });
    return { app, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** The headers (one `content-type` for an object body) and the payload of a test request. */
function framed(req: TestRequest): { headers: Record<string, string>; payload: string | Buffer | undefined } {
  const headers: Record<string, string> = { ...req.headers };
  let payload: string | Buffer | undefined;
  if (req.body !== undefined) {
    if (typeof req.body === 'string' || Buffer.isBuffer(req.body)) payload = req.body;
    else {
      payload = JSON.stringify(req.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
  }
  // GET and DELETE bodies are sent unframed by node:http unless their length is given.
  if (
    payload !== undefined &&
    !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length' || h.toLowerCase() === 'transfer-encoding')
  ) {
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return { headers, payload };
}

function testResponse(status: number, headers: Record<string, string | string[] | number | undefined>, body: string): TestResponse {
  let json: unknown;
  try {
    json = body === '' ? undefined : JSON.parse(body);
  } catch {
    json = undefined;
  }
  const outHeaders: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers))
    outHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v === undefined ? undefined : String(v);
  return { status, headers: outHeaders, text: body, json };
}

function testApp(app: App, warnings: string[], request: TestApp['request'], close: () => Promise<void>): TestApp {
  const loginAs = async (role: string, opts: { login?: string; remember?: boolean } = {}): Promise<LoggedIn> => {
    const login = opts.login ?? `${role}${++counter}`;
    const password = `pw-${login}-secret`;
    const created = await app.users.create({ login, email: `${login}@example.org`, role, password });
    if (!created.ok) throw new Error(`user creation failed: ${created.error.message}`);
    const user = created.value.user;
    const res = await request({ method: 'POST', path: '/login', body: { username: login, password, remember: opts.remember ?? false } });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
    const setCookie = res.headers['set-cookie'] ?? '';
    const cookie = setCookie.split(';')[0]!;
    const nonce = (res.json as { nonce: string }).nonce;
    return { userId: user.id, login, password, cookie, nonce };
  };
  return { app, store: app.store, warnings, request, loginAs, auth: (user) => ({ Cookie: user.cookie, 'X-WP-Nonce': user.nonce }), close };
}

/**
 * Starts a real Siteward instance in-process (fresh SQLite data directory, or the PostgreSQL
 * database in SITEWARD_DATABASE_URL when given) and talks to it over a real socket on 127.0.0.1.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const warnings: string[] = [];
  const { app, dispose } = await startApp(options, warnings);
  try {
    await app.http.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  } catch (error) {
    await app.close().catch(() => undefined);
    dispose();
    throw error;
  }

  const port = (app.http.server.address() as { port: number }).port;
  const request = async (req: TestRequest): Promise<TestResponse> => {
    const { headers, payload } = framed(req);
    // Over a real socket through the production request path (node:http → REST handler or Fastify).
    const res = await new Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: string }>(
      (resolve, reject) => {
        const out = httpRequest(
          { host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers, agent: false },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (c: Buffer) => chunks.push(c));
            response.on('end', () =>
              resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
            );
            response.on('error', reject);
          },
        );
        out.on('error', reject);
        out.end(payload);
      },
    );
    return testResponse(res.statusCode, res.headers, res.body);
  };

  return testApp(app, warnings, request, async () => {
    await app.close();
    dispose();
  });
}

/**
 * The same app without a socket, for the `unit` project: a REST request goes to
 * `RestServer.serve()` as the HTTP adapter hands it over (src/http/rest-handler.ts: route and
 * PHP-style query from the URL, lower-case headers, the request's origin, Content-Length), a page
 * request to Fastify's `inject()`. What only the adapter does (body limits, dropping a HEAD
 * answer's body, choosing between REST and pages) is tested over a socket in `*.http.test.ts`.
 */
export async function createInProcessApp(options: Omit<TestAppOptions, 'port'> = {}): Promise<TestApp> {
  const warnings: string[] = [];
  const { app, dispose } = await startApp(options, warnings);
  const { restPrefix, trustProxy } = app.config;
  const request = async (req: TestRequest): Promise<TestResponse> => {
    const { headers, payload } = framed(req);
    // What a client on a socket always sends.
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'host')) headers.host = '127.0.0.1';
    const method = req.method ?? 'GET';
    const target = extractRestRoute(req.path, restPrefix);
    if (target === null) {
      const res = await app.http.inject({ method: method as 'GET', url: req.path, headers, ...(payload === undefined ? {} : { payload }) });
      return testResponse(res.statusCode, res.headers, res.body);
    }
    const lower: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
    const out = await app.rest.serve({
      method,
      route: target.route,
      query: target.query,
      headers: lower,
      body: payload ?? '',
      origin: requestOrigin(lower, false, trustProxy),
      clientIp: '127.0.0.1',
    });
    const body = out.body ?? '';
    const sent: Record<string, string> = {};
    for (let i = 0; i < out.headers.length; i += 2) sent[out.headers[i]!.toLowerCase()] = out.headers[i + 1]!;
    sent['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    return testResponse(out.status, sent, method === 'HEAD' ? '' : body.toString());
  };
  return testApp(app, warnings, request, async () => {
    await app.close();
    dispose();
  });
}
