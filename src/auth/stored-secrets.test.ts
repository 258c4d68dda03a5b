import { afterAll, describe, expect, it } from 'vitest';
import { testStores } from '../store/testing/test-stores.js';
import { createAuthenticator } from './authenticator.js';
import { Secrets } from './secrets.js';
import { ensureSetupToken } from './setup-token.js';
import { createUserService } from './user-service.js';

const TABLES = ['options', 'users', 'user_meta', 'sessions', 'app_passwords'];

describe.each(testStores())('what is stored on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('holds no password, session token, application password or setup token in clear', async () => {
    const store = await backend.open();
    const setupToken = await ensureSetupToken(store);
    expect(setupToken).not.toBeNull();
    const password = 'Sup3r secret passphrase';
    const created = await createUserService(store).create({ login: 'root', email: 'root@example.com', password, role: 'administrator' });
    expect(created.ok).toBe(true);
    const auth = createAuthenticator({ store, secrets: new Secrets(Buffer.alloc(32, 9)), devMode: () => false });
    const login = await auth.sessions.login('root', password, { remember: true });
    if (!login.ok) throw new Error('login failed');
    const app = await auth.appPasswords.create('root', 'ci');
    if (!app.ok) throw new Error(app.message);

    const raw = JSON.stringify(await Promise.all(TABLES.map((t) => backend.rawRows(t))));
    for (const secret of [password, login.sessionToken, login.cookie, app.password, setupToken!]) {
      expect(raw).not.toContain(secret);
    }
    // Sanity: the dump does contain the rows.
    expect(raw).toContain('root@example.com');
    expect(raw).toContain('$argon2id$');
  });
});
