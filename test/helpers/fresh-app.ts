import { afterEach, beforeEach } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp, type TestAppOptions } from './test-app.js';

/**
 * Registers vitest hooks that give every test a fresh test app with a logged-in administrator
 * (closed after the test); `use` receives both before each test. `login` names the
 * administrator, `app` configures the app.
 *
 * @example
 * let t: TestApp;
 * let admin: LoggedIn;
 * freshAppWithAdmin((app, user) => { t = app; admin = user; });
 */
export function freshAppWithAdmin(use: (app: TestApp, admin: LoggedIn) => void, opts: { login?: string; app?: TestAppOptions } = {}): void {
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await createTestApp(opts.app);
    use(current, await current.loginAs('administrator', { login: opts.login }));
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
}
