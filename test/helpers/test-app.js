import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
let counter = 0;
/**
 * Starts a real Siteward instance in-process (fresh SQLite data directory, or the PostgreSQL
 * database in SITEWARD_DATABASE_URL when given) and talks to it through Fastify's inject.
 */
export async function createTestApp(options = {}) {
    const ownDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'siteward-test-'));
    const warnings = [];
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
    let app;
    try {
        app = await createApp(config, { logger: false, cwd: dataDir, plugins: options.plugins, onWarning: (w) => warnings.push(w) });
    }
    catch (error) {
        if (ownDir)
            rmSync(dataDir, { recursive: true, force: true });
        throw error;
    }
    const request = async (req) => {
        const headers = { ...req.headers };
        let payload;
        if (req.body !== undefined) {
            if (typeof req.body === 'string' || Buffer.isBuffer(req.body))
                payload = req.body;
            else {
                payload = JSON.stringify(req.body);
                if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
                    headers['content-type'] = 'application/json';
            }
        }
        const res = await app.http.inject({ method: (req.method ?? 'GET'), url: req.path, headers, payload });
        let json;
        try {
            json = res.body === '' ? undefined : JSON.parse(res.body);
        }
        catch {
            json = undefined;
        }
        const outHeaders = {};
        for (const [k, v] of Object.entries(res.headers))
            outHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v === undefined ? undefined : String(v);
        return { status: res.statusCode, headers: outHeaders, text: res.body, json };
    };
    const loginAs = async (role, opts = {}) => {
        const login = opts.login ?? `${role}${++counter}`;
        const password = `pw-${login}-secret`;
        const created = await app.services.users.create({ login, email: `${login}@example.org`, role, password });
        if (!created.ok)
            throw new Error(`user creation failed: ${created.error.message}`);
        const user = created.value.user;
        const res = await request({ method: 'POST', path: '/login', body: { username: login, password, remember: opts.remember ?? false } });
        if (res.status !== 200)
            throw new Error(`login failed: ${res.status} ${res.text}`);
        const setCookie = res.headers['set-cookie'] ?? '';
        const cookie = setCookie.split(';')[0];
        const nonce = res.json.nonce;
        return { userId: user.id, login, password, cookie, nonce };
    };
    return {
        app,
        store: app.services.store,
        warnings,
        request,
        loginAs,
        auth: (user) => ({ Cookie: user.cookie, 'X-WP-Nonce': user.nonce }),
        async close() {
            await app.close();
            if (ownDir)
                rmSync(dataDir, { recursive: true, force: true });
        },
    };
}
//# sourceMappingURL=test-app.js.map