/**
 * README's plugin example, as written there, loaded as a plugin: `defineRoute` is offered by the
 * package, and its one declaration checks the argument and types the handler's input.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessApp, type TestApp } from '../../test/helpers/test-app.js';
import type { PluginRegister } from './api.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The README's `my-plugin.js` block, importing this checkout's package entry instead of 'siteward'. */
function readmeExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /```js\n(\/\/ my-plugin\.js\n[\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README has no my-plugin.js example');
  return block[1]!.replace("from 'siteward'", `from ${JSON.stringify(join(root, 'src/index.ts'))}`);
}

describe("README's plugin example", () => {
  let app: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'siteward-readme-'));
  beforeAll(async () => {
    const file = join(dir, 'my-plugin.mjs');
    writeFileSync(file, readmeExample());
    const plugin = (await import(file)) as { default: PluginRegister };
    app = await createInProcessApp({ plugins: [plugin.default] });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers with the typed, sanitized query flag', async () => {
    expect((await app.request({ path: '/wp-json/my-plugin/v1/hello/Ann' })).json).toEqual({ text: 'Hello Ann' });
    expect((await app.request({ path: '/wp-json/my-plugin/v1/hello/Ann?shout=1' })).json).toEqual({ text: 'HELLO ANN' });
  });

  it('refuses a bad flag with rest_invalid_param and shows the argument in the index', async () => {
    const bad = await app.request({ path: '/wp-json/my-plugin/v1/hello/Ann?shout=loud' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'rest_invalid_param', data: { params: { shout: 'shout is not of type boolean.' } } });
    const index = await app.request({ path: '/wp-json/my-plugin/v1' });
    expect(JSON.stringify(index.json)).toContain(
      '"shout":{"required":false,"default":false,"description":"Answer in capitals.","type":"boolean"}',
    );
  });
});
