import type { JsonValue } from '../../rest/types.js';
import type { OptionsRepo } from '../../store/types.js';
import { ALLOW_LIST_OPTION, parseAllowList, type AllowEntry } from './allow-list.js';

/**
 * The stored allow list, parsed once per stored value: the password guard asks on every
 * attempt, and the options cache hands back the same value until someone changes it.
 */
export function allowListReader(options: OptionsRepo): () => Promise<readonly AllowEntry[]> {
  let lastStored: JsonValue | undefined;
  let lastParsed: readonly AllowEntry[] = [];
  return async () => {
    const stored = await options.get(ALLOW_LIST_OPTION);
    if (stored === lastStored) return lastParsed;
    // Saved through the module options, so every entry was valid; anything else counts as empty.
    const texts = Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
    const parsed = parseAllowList(texts.join('\n'));
    lastStored = stored;
    lastParsed = parsed.ok ? parsed.entries : [];
    return lastParsed;
  };
}
