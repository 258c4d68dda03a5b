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
import { ModuleCatalog } from '../jetpack/catalog/module-catalog.js';

const catalog = new ModuleCatalog();

/** Option keys and storage option names that look like identifiers (a plain word like `show` could be prose). */
const rawKeys = [
  ...new Set([
    ...catalog.all().flatMap((mod) => Object.keys(mod.options ?? {})),
    ...catalog.storageOptionNames(),
  ]),
].filter((key) => /[_-]/.test(key));

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
const HIDDEN_NAMES = new Set(['className', 'data-testid', 'id', 'key', 'href', 'type', 'role', 'name', 'status', 'method', 'autoComplete', 'htmlFor', 'variant', 'size']);

function nameOf(node: ts.Node): string | undefined {
  if (ts.isJsxAttribute(node) || ts.isPropertyAssignment(node)) return node.name.getText();
  return undefined;
}

/** The strings of one admin source file a person may read: JSX text and string literals not in imports, hidden attributes or calls. */
function shownStrings(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node, hidden: boolean): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    const name = nameOf(node);
    // Arguments of calls such as api(jp('options/…')) or classNames are addresses, not words; JSX children are not calls.
    const inHidden = hidden || (name !== undefined && HIDDEN_NAMES.has(name)) || (ts.isCallExpression(node) && !ts.isJsxExpression(node.parent) && isAddressCall(node));
    if (!inHidden) {
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

/** A single token (a constant like a wire key or a route) is code, unless it is given to a shown prop. */
function isWords(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): boolean {
  if (!/^[\w./:-]+$/.test(node.text)) return true;
  const owner = nameOf(node.parent) ?? (ts.isJsxExpression(node.parent) ? nameOf(node.parent.parent) : undefined);
  return owner !== undefined && SHOWN_NAMES.has(owner);
}

function isAddressCall(node: ts.CallExpression): boolean {
  const callee = node.expression.getText();
  return ['api', 'jp', 'useLoad', 'fetch', 'encodeURIComponent', 'localStorage.getItem', 'localStorage.setItem'].includes(callee);
}

const ADMIN_DIR = join(import.meta.dirname, '../../admin');
const adminFiles = readdirSync(ADMIN_DIR).filter((name) => name.endsWith('.tsx')).map((name) => join(ADMIN_DIR, name));

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

  it('lists Jump Start features in Siteward’s words', () => {
    const list = catalog.jumpstartModules();
    expect(list.length).toBeGreaterThan(0);
    for (const mod of list) expect(mod.jumpstart_desc, mod.slug).not.toBe('');
    expect(list.flatMap((mod) => offences(mod.jumpstart_desc).map((p) => `${mod.slug}: ${p}`))).toEqual([]);
  });

  it('finds the admin page’s own strings', () => {
    const all = adminFiles.flatMap(shownStrings);
    expect(all).toContain('Run by Siteward');
  });

  it.each(adminFiles.map((file) => [file.slice(ADMIN_DIR.length + 1), file] as const))('admin page %s shows only Siteward’s words', (_name, file) => {
    const bad = shownStrings(file).flatMap((text) => offences(text).map((pattern) => `${pattern} in "${text}"`));
    expect(bad).toEqual([]);
  });
});
