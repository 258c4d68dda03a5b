/**
 * Protect's options. Siteward runs brute-force protection itself (src/features/protect), so
 * nothing here talks to a remote service: the key is made locally, and the allow list is
 * parsed by the same parser the password guard matches addresses with.
 */
import type { JsonValue } from '../../../../core/json.js';
import {
  ALLOW_LIST_OPTION,
  allowListTexts,
  INVALID_ALLOW_LIST_MESSAGE,
  MAX_ALLOW_LIST_ENTRIES,
  parseAllowList,
  updateProtectKey,
} from '../../../protect/index.js';
import type { ModuleOptionDefinition, OptionWriteOutcome } from '../../module-types.js';
import { storeValue } from '../option-io.js';

export const protectOptions: Record<string, ModuleOptionDefinition> = {
  /**
   * Historically `"create"` fetched a key from the remote Protect API; here it makes a local
   * random key, answered as `jetpack_protect_key`. Other alphanumeric values are stored as sent.
   */
  jetpack_protect_key: {
    description: 'Protect API key',
    type: 'string',
    default: '',
    validate: (value) => {
      const update = updateProtectKey(value);
      return update.ok ? true : update.message;
    },
    sanitize: String,
    write: async (value, io): Promise<OptionWriteOutcome> => {
      const update = updateProtectKey(value);
      if (!update.ok) return { ok: false, info: update.message };
      const changed = await storeValue(io, update.key === '' ? undefined : update.key);
      return update.created
        ? { ok: true, changed, value: update.key, response: { jetpack_protect_key: update.key } }
        : { ok: true, changed, value: update.key };
    },
  },
  /**
   * Stored as the entries' texts (`1.2.3.4`, `10.0.0.1 - 10.0.0.255`, `192.168.0.0/24`); read back as `{local: [...]}`
   * like the reference. One bad entry refuses the request, so a bad list saves nothing.
   */
  jetpack_protect_global_whitelist: {
    description: 'Protect global whitelist',
    type: 'string',
    default: '',
    sanitize_callback: 'esc_textarea',
    validate: (value, param) => {
      const parsed = typeof value === 'string' ? parseAllowList(value) : null;
      if (parsed === null || !parsed.ok)
        return `${param} must be a list of IP addresses, IP ranges (low - high) or CIDR blocks (192.168.0.0/24). ${INVALID_ALLOW_LIST_MESSAGE}`;
      return parsed.entries.length <= MAX_ALLOW_LIST_ENTRIES
        ? true
        : `${param} may hold at most ${MAX_ALLOW_LIST_ENTRIES} entries (use ranges or CIDR blocks for more addresses); it has ${parsed.entries.length}.`;
    },
    sanitize: (value) => {
      const parsed = parseAllowList(String(value));
      return parsed.ok ? allowListTexts(parsed.entries) : [];
    },
    storage: { option: ALLOW_LIST_OPTION },
    decode: (stored: JsonValue | undefined) => ({ local: Array.isArray(stored) ? stored : [] }),
  },
};
