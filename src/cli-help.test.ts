import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './cli.js';

/** The lines of README's "Command line" block, without the leading `siteward `. */
function readmeCommandLines(): string[] {
  const readme = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const match = /## Command line\n\n```\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README has no "Command line" block');
  return match[1]
    .trim()
    .split('\n')
    .map((line) => line.replace(/^siteward /, ''));
}

async function help(): Promise<string> {
  const out: string[] = [];
  const code = await main(['--help'], { out: (l) => out.push(l), err: (l) => out.push(l) });
  expect(code).toBe(0);
  return out.join('\n');
}

describe('siteward --help', () => {
  it('names every command and option the README lists under "Command line"', async () => {
    const text = await help();
    const missing: string[] = [];
    for (const line of readmeCommandLines()) {
      // The command words: up to the first placeholder, option or alternative.
      const words = line.split(' ');
      const end = words.findIndex((w) => /^[[<(|-]/.test(w));
      const command = words.slice(0, end === -1 ? words.length : end).join(' ');
      if (!text.includes(command)) missing.push(command);
      for (const option of line.match(/--[a-z][a-z-]*/g) ?? []) if (!text.includes(option)) missing.push(`${command} ${option}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('siteward --version', () => {
  it('prints the version of package.json, and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const out: string[] = [];
      expect(await main([flag], { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(0);
      expect(out).toEqual([`siteward ${version}`]);
    }
  });
});
