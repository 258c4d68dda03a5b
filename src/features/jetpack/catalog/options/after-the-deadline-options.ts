/**
 * Spelling and Grammar options. Historically per-user settings; Siteward keeps them in one site
 * option mapping user id → settings, so a reset can clear them all in one step.
 */
import type { JsonValue } from '../../../../core/json.js';
import type { ModuleOptionDefinition, OptionStorage } from '../../module-types.js';
import { loadValue, storeValue } from '../option-io.js';
import { boolOption, textOption } from '../option-builders.js';

export const ATD_OPTION = 'AtD_user_settings';

const perUser = (key: string): OptionStorage => ({ option: ATD_OPTION, perUser: true, path: [key] });

const STYLE_CHECKS = [
  'Bias Language',
  'Cliches',
  'Complex Expression',
  'Diacritical Marks',
  'Double Negative',
  'Hidden Verbs',
  'Jargon Language',
  'Passive voice',
  'Phrases to Avoid',
  'Redundant Expression',
] as const;

/** Phrases as a clean comma list (the whole list is replaced on each save). */
function toPhraseList(value: unknown): JsonValue {
  return [
    ...new Set(
      String(value)
        .replace(/<[^>]*>/g, '')
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    ),
  ].join(',');
}

const styleOptions = Object.fromEntries(STYLE_CHECKS.map((key) => [key, boolOption(key, 0, perUser(key))]));

export const afterTheDeadlineOptions: Record<string, ModuleOptionDefinition> = {
  onpublish: boolOption('Proofread when a post or page is first published.', 0, perUser('onpublish')),
  onupdate: boolOption('Proofread when a post or page is updated.', 0, perUser('onupdate')),
  ...styleOptions,
  guess_lang: boolOption('Use automatically detected language to proofread posts and pages', 0, perUser('guess_lang')),
  ignored_phrases: textOption('Add Phrase to be ignored', '', 'esc_html', perUser('ignored_phrases'), toPhraseList),
  /** Removes one phrase from the ignored list; never shown on read. */
  unignore_phrase: {
    description: 'Remove Phrase from being ignored',
    type: 'string',
    default: '',
    sanitize_callback: 'esc_html',
    validate: (value, param) => (typeof value === 'string' ? true : `${param} must be a string.`),
    storage: perUser('ignored_phrases'),
    writeOnly: true,
    write: async (value, io) => {
      const phrase = String(value).trim();
      const current = await loadValue(io);
      const phrases = typeof current === 'string' && current !== '' ? current.split(',') : [];
      const kept = phrases.filter((p) => p !== phrase).join(',');
      const changed = await storeValue(io, kept);
      return { ok: true, changed, value: phrase };
    },
  },
};
