import { describe, expect, it } from 'vitest';
import { ModuleCatalog } from './module-catalog.js';
import { OPTION_TEXTS, optionTextsOf } from './option-texts.js';

const catalog = new ModuleCatalog();
const every = catalog
  .all()
  .flatMap((mod) => Object.keys(mod.options ?? {}).map((key) => ({ slug: mod.slug, key, texts: optionTextsOf(mod)![key]! })));
/** A label that is an identifier (`jetpack_protect_key`, `jetpack-twitter-cards-site-tag`) rather than words. */
const RAW_KEY = /\b[a-z0-9]+_[a-z0-9_]+\b|\b[a-z0-9]+(-[a-z0-9]+){2,}\b/;
/** Keys that are identifiers; a few are plain words (`roles`, `Passive voice`) a text may well use. */
const isIdentifier = (key: string) => /^[a-z0-9]+([_-][a-z0-9]+)+$/.test(key);

describe('the option catalogue', () => {
  it('gives every option of every built-in module a label, help and a rule', () => {
    expect(every.length).toBeGreaterThan(60);
    const missing = every
      .filter(({ texts }) => !texts.label.trim() || !texts.help.trim() || !texts.rule.trim())
      .map(({ slug, key }) => `${slug}/${key}`);
    expect(missing).toEqual([]);
  });

  it('labels options in words: never a key, never the schema sentence, no trailing full stop', () => {
    const raw = catalog.all().flatMap((mod) =>
      Object.entries(mod.options ?? {})
        .filter(([key, option]) => {
          const { label } = optionTextsOf(mod)![key]!;
          return (
            label === key ||
            RAW_KEY.test(label) ||
            (isIdentifier(key) && label.includes(key)) ||
            label === option.description ||
            label.endsWith('.')
          );
        })
        .map(([key]) => `${mod.slug}/${key}`),
    );
    expect(raw).toEqual([]);
  });

  it('names no option key in help or rule, and holds no text for an option that does not exist', () => {
    const keys = new Set(every.map(({ key }) => key));
    const named = every
      .filter(({ texts }) => [...keys].some((key) => isIdentifier(key) && (texts.help.includes(key) || texts.rule.includes(key))))
      .map(({ slug, key }) => `${slug}/${key}`);
    expect(named).toEqual([]);
    const stray = Object.entries(OPTION_TEXTS).flatMap(([slug, texts]) =>
      Object.keys(texts)
        .filter((key) => !catalog.get(slug)?.options?.[key])
        .map((key) => `${slug}/${key}`),
    );
    expect(stray).toEqual([]);
  });

  it('uses a plugin option’s own texts, else its description as the label', () => {
    const plugins = new ModuleCatalog();
    const mod = plugins.register({
      slug: 'acme-forms',
      name: 'Forms',
      description: 'Forms.',
      introduced: '1.0',
      options: {
        acme_color: {
          description: 'Form colour',
          type: 'string',
          default: '',
          texts: { label: 'Colour', help: 'The form’s colour.', rule: 'A CSS colour.' },
        },
        acme_size: { description: 'Form size', type: 'integer', default: 1 },
      },
    });
    expect(optionTextsOf(mod)).toEqual({
      acme_color: { label: 'Colour', help: 'The form’s colour.', rule: 'A CSS colour.' },
      acme_size: { label: 'Form size', help: '', rule: '' },
    });
  });
});
