/** Module options as responses show them: definition minus callbacks, plus `current_value` (docs/spec/jetpack-v4-reference.md §6). */
import type { JsonValue } from '../../../core/json.js';
import type { Principal } from '../../../rest/types.js';
import type { OptionsRepo } from '../../../store/types.js';
import { storageOf } from '../catalog/module-catalog.js';
import { readStored } from '../catalog/option-storage.js';
import { castByType } from '../catalog/option-validators.js';
import type { ModuleOption } from '../../../wire/jetpack-v4.js';
import type { CatalogModule, ModuleOptionDefinition } from '../module-types.js';

/** The wire shape the admin page reads too. */
export type OptionResponse = ModuleOption;

/** Loads every site option the modules' options live in, with one `getMany`. */
export async function loadOptionStorage(options: OptionsRepo, modules: readonly CatalogModule[]): Promise<Map<string, JsonValue>> {
  const names = new Set<string>();
  for (const mod of modules) for (const [key, def] of Object.entries(mod.options ?? {})) names.add(storageOf(key, def).option);
  return names.size > 0 ? options.getMany([...names]) : new Map();
}

async function currentValue(
  key: string,
  def: ModuleOptionDefinition,
  loaded: ReadonlyMap<string, JsonValue>,
  options: OptionsRepo,
  user: Principal,
): Promise<JsonValue> {
  if (def.writeOnly) return castByType(def.type, def.default);
  const storage = storageOf(key, def);
  const stored = def.read ? await def.read({ options, user, storage }) : readStored(loaded.get(storage.option), storage, user.id);
  const value = def.decode ? def.decode(stored) : (stored ?? def.default);
  return castByType(def.type, value);
}

/** The `options` member of a module record: null for a module without options. */
export async function optionsForResponse(
  mod: CatalogModule,
  loaded: ReadonlyMap<string, JsonValue>,
  options: OptionsRepo,
  user: Principal,
): Promise<Record<string, OptionResponse> | null> {
  if (!mod.options) return null;
  const out: Record<string, OptionResponse> = {};
  for (const [key, def] of Object.entries(mod.options)) {
    out[key] = {
      description: def.description,
      type: def.type,
      default: def.default,
      ...(def.enum && { enum: { ...def.enum } }),
      ...(def.sanitize_callback && { sanitize_callback: def.sanitize_callback }),
      current_value: await currentValue(key, def, loaded, options, user),
    };
  }
  return out;
}
