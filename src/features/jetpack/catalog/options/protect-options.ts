/**
 * Protect's options. Siteward runs brute-force protection itself, so nothing here talks to a
 * remote service: the key is generated locally and the whitelist is read by Siteward's limiter.
 */
import { randomBytes } from 'node:crypto';
import type { JsonValue } from '../../../../core/json.js';
import type { ModuleOptionDefinition, OptionWriteOutcome } from '../../module-types.js';
import { storeValue } from '../option-io.js';
import { parseIpList, validateAlphanum, validateIpList } from '../option-validators.js';

/** A fresh 40-character key (the historical Protect API key had 40+ characters). */
export function generateProtectKey(): string {
  return randomBytes(20).toString('hex');
}

export const protectOptions: Record<string, ModuleOptionDefinition> = {
  /**
   * Historically `"create"` fetched a key from the remote Protect API. Here `"create"` makes a
   * local random key and answers it as `jetpack_protect_key`; any other alphanumeric value is
   * stored as sent (empty clears it).
   */
  jetpack_protect_key: {
    description: 'Protect API key',
    type: 'string',
    default: '',
    validate: validateAlphanum,
    sanitize: String,
    write: async (value, io): Promise<OptionWriteOutcome> => {
      const key = value === 'create' ? generateProtectKey() : (value as string);
      const changed = await storeValue(io, key === '' ? undefined : key);
      return value === 'create'
        ? { ok: true, changed, value: key, response: { jetpack_protect_key: key } }
        : { ok: true, changed, value: key };
    },
  },
  /** Stored as normalized entries; read back as `{local: [...]}` like the reference. */
  jetpack_protect_global_whitelist: {
    description: 'Protect global whitelist',
    type: 'string',
    default: '',
    sanitize_callback: 'esc_textarea',
    validate: validateIpList,
    sanitize: (value) => parseIpList(value as string) ?? [],
    storage: { option: 'jetpack_protect_whitelist' },
    decode: (stored: JsonValue | undefined) => ({ local: Array.isArray(stored) ? stored : [] }),
  },
};
