import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'siteward-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plugin = path.join(dir, 'catalog-plugin.mjs');
writeFileSync(
  plugin,
  `export default function register(api) {
    api.registerRoute('catalog/v1', '/items/(?P<slug>[a-z0-9-]+)', {
      methods: 'GET',
      args: { lang: { type: 'string', enum: ['en', 'fr'], default: 'en', description: 'Language of the answer.' } },
      permissionCallback: () => true,
      callback: (req) => ({ slug: req.params.slug }),
    });
  }`,
);
const configFile = path.join(dir, 'siteward.config.json');
writeFileSync(configFile, JSON.stringify({ dataDir: path.join(dir, 'data'), plugins: [plugin], homeUrl: 'https://example.org' }));

type Doc = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };

async function openapi(): Promise<Doc> {
  const out: string[] = [];
  const code = await main(['openapi', '--config', configFile], { out: (l) => out.push(l), err: (l) => out.push(l) });
  expect(code).toBe(0);
  return JSON.parse(out.join('\n')) as Doc;
}

/** The typed-client example of docs/api.md (README links to it), as written there. */
function readmeExample(): string {
  const readme = readFileSync(path.join(import.meta.dirname, '..', 'docs', 'api.md'), 'utf8');
  const match = /<!-- example:typed-client -->\n```ts\n([\s\S]*?)```\n<!-- \/example -->/.exec(readme);
  if (!match) throw new Error('docs/api.md has no typed-client example');
  return match[1]!;
}

/** Type-checks `example.ts` against `api.d.ts` in `where`; the compiler's messages. */
function typeCheck(where: string, example: string): string[] {
  const file = path.join(where, 'example.ts');
  writeFileSync(file, example);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('siteward openapi', () => {
  it("prints an OpenAPI 3.1 document of every route, a plugin's included, that a maintained validator accepts", async () => {
    const doc = await openapi();
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://example.org/wp-json' }]);
    const item = doc.paths['/catalog/v1/items/{slug}']!;
    expect(item.parameters).toEqual([
      { name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: '^(?:[a-z0-9-]+)$' } },
    ]);
    expect(item.get).toMatchObject({
      parameters: [
        {
          name: 'lang',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['en', 'fr'], default: 'en', description: 'Language of the answer.' },
        },
      ],
      responses: { 200: { description: expect.stringContaining('declares no response schema') } },
    });
    expect(doc.paths['/wp/v2/users/{id}']).toHaveProperty('delete');
    expect(doc.paths['/jetpack/v4/module/{slug}/active']).toHaveProperty('post');
    expect(doc.paths['/wp/v2/users/{user_id}/application-passwords']!.parameters).toEqual([
      { name: 'user_id', in: 'path', required: true, schema: { type: 'string', pattern: '^(?:(?:[\\d]+|me))$' } },
    ]);
    expect(doc).not.toHaveProperty('x-siteward-unrepresented-routes');
  });

  it('generates a typed client that type-checks the example of docs/api.md, and refuses a wrong call', async () => {
    const doc = await openapi();
    const types = astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
    const where = mkdtempSync(path.join(dir, 'client-'));
    writeFileSync(path.join(where, 'api.d.ts'), types);
    const example = readmeExample();
    expect(typeCheck(where, example)).toEqual([]);
    // The types bind: a display name must be a string, and a role list a list.
    const wrong = example.replace("{ name: 'Ada Lovelace', roles: ['editor'] }", "{ name: 42, roles: 'editor' }");
    expect(wrong).not.toBe(example);
    expect(typeCheck(where, wrong).length).toBeGreaterThan(0);
  }, 60_000);
});
