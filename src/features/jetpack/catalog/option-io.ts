/** Atomic reads and writes of one module option through the options repository. */
import type { JsonValue } from '../../../core/json.js';
import type { OptionReadContext, OptionWriteContext } from '../module-types.js';
import { jsonEqual, readStored, writeStored } from './option-storage.js';

/**
 * Stores `value` (undefined removes it) at the option's storage location with one atomic
 * `update`, so concurrent writes to other fields of the same stored object are never lost.
 * Returns whether the stored value changed.
 */
export async function storeValue(io: OptionWriteContext, value: JsonValue | undefined): Promise<boolean> {
  let changed = false;
  await io.options.update(io.storage.option, (current) => {
    changed = !jsonEqual(readStored(current, io.storage, io.user.id), value);
    return changed ? writeStored(current, io.storage, io.user.id, value) : current;
  });
  return changed;
}

/** The stored form at the option's storage location (undefined when never set). */
export async function loadValue(io: OptionReadContext): Promise<JsonValue | undefined> {
  return readStored(await io.options.get(io.storage.option), io.storage, io.user.id);
}
