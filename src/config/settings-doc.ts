/**
 * The operators' settings table (docs/configuration.md), drawn from the declarations: a test
 * (test/generated-docs.test.ts) fails when the file differs, and `npm run docs:generate` rewrites it.
 */
import type { TSchema } from '@sinclair/typebox';
import type { OwnedSettings } from './config.js';

export interface EnvironmentOnly {
  readonly env: string;
  readonly defaultDoc: string;
  readonly doc: string;
}

/** What a schema accepts, in a few words: `integer 1–1000`, `on/off`, `pretty, index, plain`, `URL`. */
export function allowedValues(schema: TSchema): string {
  if (Array.isArray(schema.anyOf)) {
    return (schema.anyOf as TSchema[])
      .filter((s) => s.type !== 'null')
      .map(allowedValues)
      .join(', ');
  }
  if (schema.const !== undefined) return String(schema.const);
  switch (schema.type) {
    case 'integer':
      return `integer ${String(schema.minimum)}–${String(schema.maximum)}`;
    case 'boolean':
      return 'on/off';
    case 'array':
      return schema.items?.type === 'integer' ? `list of ${allowedValues(schema.items as TSchema)}` : 'list';
    case 'string':
      return schema.format === 'uri' ? 'URL' : 'text';
    default:
      return 'text';
  }
}

function defaultText(schema: TSchema, defaultDoc: string | undefined): string {
  if (defaultDoc !== undefined) return defaultDoc;
  const value: unknown = schema.default;
  if (value === undefined || value === null) return '—';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The whole docs/configuration.md. */
export function settingsMarkdown(groups: readonly OwnedSettings[], environmentOnly: readonly EnvironmentOnly[]): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from the settings declarations (src/config/core-settings.ts and src/features/*/settings.ts) by `npm run docs:generate`; do not edit. -->',
    '',
    'Settings come from an optional `siteward.config.json` in the working directory (the config keys),',
    'overridden by environment variables. A bad value stops start-up with one line naming the setting',
    'and what is allowed. Each feature declares the settings only it uses; the core declares the rest.',
  ];
  for (const { owner, group } of groups) {
    lines.push(
      '',
      `## ${owner === 'core' ? 'Core' : `Feature \`${owner}\``}`,
      '',
      '| variable | config key | default | allowed | meaning |',
      '|---|---|---|---|---|',
    );
    for (const [key, s] of Object.entries(group.settings)) {
      lines.push(
        `| \`${s.env}\` | \`${key}\` | ${cell(defaultText(s.schema, s.defaultDoc))} | ${cell(allowedValues(s.schema))} | ${cell(s.doc)} |`,
      );
    }
    if (owner === 'core') {
      for (const e of environmentOnly) lines.push(`| \`${e.env}\` | — | ${cell(e.defaultDoc)} | text | ${cell(e.doc)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
