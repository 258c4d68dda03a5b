/**
 * Every word a person reads is Siteward's (issue 25, item 1; docs/spec/compat.md §9): the module
 * records' human texts, the Jump Start list and the admin page's own strings never name Jetpack,
 * WordPress.com or Google+, nor show a raw option key. Wire `message` strings are not checked here:
 * they stay the reference's.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ModuleCatalog, optionTextsOf } from '../jetpack/index.js';

const catalog = new ModuleCatalog();

/** Option keys and storage option names that look like identifiers (a plain word like `show` could be prose). */
const rawKeys = [...new Set([...catalog.all().flatMap((mod) => Object.keys(mod.options ?? {})), ...catalog.storageOptionNames()])].filter(
  (key) => /[_-]/.test(key),
);

const FORBIDDEN: readonly RegExp[] = [
  /wordpress\.com/i,
  /jetpack/i,
  /google\+|google plus/i,
  ...rawKeys.map((key) => new RegExp(`(^|[^\\w-])${key.replace(/[-]/g, '\\-')}($|[^\\w-])`)),
];

function offences(text: string): string[] {
  return FORBIDDEN.filter((pattern) => pattern.test(text)).map(String);
}

/** JSX attributes and object properties whose strings are not shown (classes, test ids, keys, routes). */
const HIDDEN_NAMES = new Set([
  'className',
  'data-testid',
  'id',
  'key',
  'href',
  'type',
  'role',
  'name',
  'status',
  'method',
  'autoComplete',
  'htmlFor',
  'variant',
  'size',
]);

function nameOf(node: ts.Node): string | undefined {
  if (ts.isJsxAttribute(node) || ts.isPropertyAssignment(node)) return node.name.getText();
  return undefined;
}

/**
 * The strings of one admin source a person may read: JSX text and string literals not in imports,
 * hidden attributes or address calls, and every message given to `__()`, `_n()`, `_x()` or `sprintf()`.
 */
function shownStrings(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  // A .ts module has no JSX: its shown words are its i18n messages (its other strings are addresses and codes).
  const onlyMessages = !file.endsWith('.tsx');
  const found: string[] = [];
  const visit = (node: ts.Node, hidden: boolean): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    const name = nameOf(node);
    // Arguments of calls such as api(jp('options/…')) or classNames are addresses, not words; JSX children are not calls.
    const inHidden =
      hidden ||
      (name !== undefined && HIDDEN_NAMES.has(name)) ||
      (ts.isCallExpression(node) && !ts.isJsxExpression(node.parent) && isAddressCall(node));
    if (onlyMessages) {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && isMessage(node)) found.push(node.text);
    } else if (!inHidden) {
      if (ts.isJsxText(node) && node.text.trim() !== '') found.push(node.text.trim());
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && isWords(node)) found.push(node.text);
      if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) found.push(node.text);
    }
    ts.forEachChild(node, (child) => visit(child, inHidden));
  };
  visit(source, false);
  return found;
}

/** Props whose strings are shown even when they are a single token. */
const SHOWN_NAMES = new Set(['label', 'help', 'title', 'text', 'placeholder', 'aria-label', 'alt', 'description']);

/** @wordpress/i18n functions → the positions of their arguments that are shown (not the text domain or context). */
const MESSAGE_ARGS: Readonly<Record<string, readonly number[]>> = { __: [0], _x: [0], _n: [0, 1], _nx: [0, 1], sprintf: [0] };

/** A message of an i18n call: shown, even when it is one word (`__('Modules', 'siteward')`). */
function isMessage(node: ts.Node): boolean {
  const call = node.parent;
  if (!ts.isCallExpression(call)) return false;
  const positions = MESSAGE_ARGS[call.expression.getText()];
  return positions !== undefined && positions.includes(call.arguments.indexOf(node as ts.Expression));
}

/** A single token (a constant like a wire key or a route) is code, unless it is given to a shown prop or an i18n call. */
function isWords(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): boolean {
  if (isMessage(node)) return true;
  if (!/^[\w./:-]+$/.test(node.text)) return true;
  const owner = nameOf(node.parent) ?? (ts.isJsxExpression(node.parent) ? nameOf(node.parent.parent) : undefined);
  return owner !== undefined && SHOWN_NAMES.has(owner);
}

function isAddressCall(node: ts.CallExpression): boolean {
  const callee = node.expression.getText();
  return ['api', 'jp', 'useLoad', 'fetch', 'encodeURIComponent', 'localStorage.getItem', 'localStorage.setItem'].includes(callee);
}

const ADMIN_DIR = join(import.meta.dirname, '../../admin');
const adminFiles = readdirSync(ADMIN_DIR)
  .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.config.ts'))
  .map((name) => join(ADMIN_DIR, name));

describe('the words a person reads', () => {
  it('knows the option keys it must not show (the check is not empty)', () => {
    expect(rawKeys).toContain('jetpack_protect_global_whitelist');
    expect(offences('Enter jetpack_protect_global_whitelist here')).not.toEqual([]);
    expect(offences('Secure login with WordPress.com')).not.toEqual([]);
    expect(offences('Share on Google+')).not.toEqual([]);
    expect(offences('Addresses on the allow list are never blocked.')).toEqual([]);
  });

  it.each(catalog.all().map((mod) => [mod.slug, mod] as const))('module %s describes itself in Siteward’s words', (_slug, mod) => {
    const texts = { description: mod.description, long_description: mod.long_description, jumpstart_desc: mod.jumpstart_desc };
    const bad = Object.entries(texts).flatMap(([field, text]) => offences(text).map((pattern) => `${field}: ${pattern} in "${text}"`));
    expect(bad).toEqual([]);
  });

  it.each(
    catalog
      .all()
      .filter((mod) => mod.options)
      .map((mod) => [mod.slug, mod] as const),
  )('module %s labels, explains and rules its options in Siteward’s words (the option catalogue)', (_slug, mod) => {
    const texts = optionTextsOf(mod)!;
    expect(Object.keys(texts)).toEqual(Object.keys(mod.options!));
    const bad = Object.entries(texts).flatMap(([key, { label, help, rule }]) =>
      Object.entries({ label, help, rule }).flatMap(([field, text]) => [
        ...(text.trim() === '' ? [`${key}.${field} is empty`] : []),
        ...offences(text).map((pattern) => `${key}.${field}: ${pattern} in "${text}"`),
      ]),
    );
    expect(bad).toEqual([]);
  });

  it('lists Jump Start features in Siteward’s words', () => {
    const list = catalog.jumpstartModules();
    expect(list.length).toBeGreaterThan(0);
    for (const mod of list) expect(mod.jumpstart_desc, mod.slug).not.toBe('');
    expect(list.flatMap((mod) => offences(mod.jumpstart_desc).map((p) => `${mod.slug}: ${p}`))).toEqual([]);
  });

  it('finds the admin page’s own strings, in JSX and in i18n calls', () => {
    const all = adminFiles.flatMap((file) => shownStrings(file));
    expect(all).toContain('Run by Siteward');
    expect(all).toContain('Modules');
    expect(all).toContain('%d plugin needs updating.');
    expect(all).toContain('%d plugins need updating.');
    expect(all).not.toContain('siteward');
  });

  it('fails on a bad word inside __(), _n() and sprintf(), as in plain JSX', () => {
    const samples = [
      "const a = __('Log in with WordPress.com', 'siteward');",
      "const b = sprintf(_n('%d module', '%d Jetpack modules', n, 'siteward'), n);",
      "const c = sprintf(__('Share on %s', 'siteward'), 'Google+');",
      "const d = <p>{__('Enter jetpack_protect_global_whitelist', 'siteward')}</p>;",
      "export const e = () => __('Jetpack', 'siteward');",
    ];
    for (const sample of samples) expect(shownStrings('sample.tsx', sample).flatMap(offences), sample).not.toEqual([]);
    // In a .ts module only messages count: a message with a bad word fails, an address does not.
    expect(shownStrings('sample.ts', samples[0]!).flatMap(offences)).not.toEqual([]);
    expect(shownStrings('sample.ts', samples[4]!).flatMap(offences)).not.toEqual([]);
    expect(shownStrings('sample.ts', 'export const jp = (path: string) => `/jetpack/v4/${path}`;')).toEqual([]);
  });

  it.each(adminFiles.map((file) => [file.slice(ADMIN_DIR.length + 1), file] as const))(
    'admin page %s shows only Siteward’s words',
    (_name, file) => {
      const bad = shownStrings(file).flatMap((text) => offences(text).map((pattern) => `${pattern} in "${text}"`));
      expect(bad).toEqual([]);
    },
  );
});
