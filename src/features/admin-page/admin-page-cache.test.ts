/**
 * The admin page's per-user template cache and templates: a filled template is byte for byte the
 * page rendered whole (escaping included), and the cache holds a bounded number of bytes
 * however many users visit (the memory guard of issue 26: bytes of the structure, not RSS).
 */
import { describe, expect, it } from 'vitest';
import { createAdminPageCache } from './admin-page-cache.js';
import { adminPage, adminPageTemplate } from './admin-page-html.js';

const bundle = { script: '/admin/assets/main-abcdefgh.js', styles: ['/admin/assets/main-abcdefgh.css'], preloads: [] };
const state = {
  WP_API_root: 'http://x/wp-json/',
  WP_API_nonce: '',
  getModules: { markdown: { name: 'Markdown </script><!--', activated: true } },
  line: '\u2028&',
};

describe('adminPageTemplate', () => {
  it('fills to exactly the page rendered whole, with every part escaped as there', () => {
    const template = adminPageTemplate({ initialState: state, userLogin: `o'<b>&"x`, bundle });
    for (const notice of [null, { tone: 'error' as const, text: `<img src=x onerror=alert(1)> & "'` }]) {
      const parts = { restNonce: 'abc"</script>', logoutNonce: '"><b>', cspNonce: 'n+/=', notice };
      expect(Buffer.concat(template.fill(parts)).toString('utf8')).toBe(
        adminPage({
          initialState: { ...state, WP_API_nonce: parts.restNonce },
          userLogin: `o'<b>&"x`,
          logoutNonce: parts.logoutNonce,
          nonce: parts.cspNonce,
          bundle,
          notice,
        }),
      );
    }
  });
});

describe('createAdminPageCache', () => {
  it('renders once per user and key, again when the key or the bundle changes', async () => {
    const cache = createAdminPageCache();
    let renders = 0;
    const render = async () => {
      renders += 1;
      return adminPageTemplate({ initialState: state, userLogin: 'a', bundle });
    };
    const first = await cache.get(1, 'v1', bundle, render);
    expect(await cache.get(1, 'v1', bundle, render)).toBe(first);
    expect(renders).toBe(1);
    await cache.get(2, 'v1', bundle, render);
    await cache.get(1, 'v2', bundle, render);
    await cache.get(1, 'v2', { ...bundle }, render);
    expect(renders).toBe(4);
  });

  it('holds at most its size in bytes however many users come, counting the pages as encoded', async () => {
    const max = 200_000;
    const cache = createAdminPageCache(max);
    const big = { ...state, filler: 'x'.repeat(60_000) + '—' };
    const one = adminPageTemplate({ initialState: big, userLogin: 'u0', bundle });
    expect(one.bytes).toBeGreaterThan(50_000);
    for (let user = 1; user <= 100; user++)
      await cache.get(user, 'v', bundle, async () => adminPageTemplate({ initialState: big, userLogin: `u${user}`, bundle }));
    expect(cache.calculatedSize).toBeGreaterThan(150_000);
    expect(cache.calculatedSize).toBeLessThanOrEqual(max);
  });
});
