/**
 * Validating and writing module options, shared by `POST module/:slug` (module-options.ts) and
 * the 4.4+ `POST settings` (settings-object.ts): one rule for what a valid value is, how it is
 * stored, and which events follow.
 */
import type { JsonValue } from '../../../core/json.js';
import type { Principal } from '../../../rest/types.js';
import type { OptionsRepo } from '../../../store/types.js';
import { storageOf } from '../catalog/module-catalog.js';
import { storeValue } from '../catalog/option-io.js';
import { sanitizeByType, validateByType } from '../catalog/option-validators.js';
import type { PluginContext } from '../context.js';
import type { ModuleOptionDefinition, OptionWriteContext, OptionWriteOutcome } from '../module-types.js';
import { TRACKED_OPTIONS } from './jumpstart-state.js';

/** One option a request asks to change. */
export interface OptionWrite {
  readonly slug: string;
  readonly key: string;
  readonly def: ModuleOptionDefinition;
  readonly sent: unknown;
}

/** Per-key messages of the writes whose value is invalid (empty when all are valid). */
export function optionProblems(writes: readonly OptionWrite[]): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const { key, def, sent } of writes) {
    const verdict = (def.validate ?? validateByType(def.type))(sent, key);
    if (verdict !== true) problems[key] = verdict;
  }
  return problems;
}

async function defaultWrite(def: ModuleOptionDefinition, value: JsonValue, io: OptionWriteContext): Promise<OptionWriteOutcome> {
  const changed = await storeValue(io, def.encode ? def.encode(value) : value);
  return { ok: true, changed, value };
}

/**
 * Writes validated options with the transaction's `options`. `tracked` says whether one of the
 * historically tracked options changed (the caller closes the Jump Start offer then).
 */
export async function writeOptions(
  options: OptionsRepo,
  writes: readonly OptionWrite[],
  user: Principal,
  homeUrl: string,
): Promise<{ outcomes: Map<OptionWrite, OptionWriteOutcome>; tracked: boolean }> {
  const outcomes = new Map<OptionWrite, OptionWriteOutcome>();
  let tracked = false;
  for (const write of writes) {
    const { key, def, sent } = write;
    const value = (def.sanitize ?? sanitizeByType(def.type))(sent);
    const io: OptionWriteContext = { options, user, homeUrl, storage: storageOf(key, def) };
    const outcome = def.write ? await def.write(value, io) : await defaultWrite(def, value, io);
    outcomes.set(write, outcome);
    if (outcome.ok && outcome.changed && TRACKED_OPTIONS.has(io.storage.option)) tracked = true;
  }
  return { outcomes, tracked };
}

/** After the commit: `module.option_updated` for each changed option; the extra response members and the keys not saved. */
export async function announceOptionWrites(
  ctx: PluginContext,
  outcomes: ReadonlyMap<OptionWrite, OptionWriteOutcome>,
): Promise<{ extras: Record<string, JsonValue>; notUpdated: Map<string, string | undefined> }> {
  const extras: Record<string, JsonValue> = {};
  const notUpdated = new Map<string, string | undefined>();
  for (const [{ slug, key }, outcome] of outcomes) {
    if (!outcome.ok) {
      notUpdated.set(key, outcome.info);
      continue;
    }
    Object.assign(extras, outcome.response);
    if (outcome.changed) await ctx.events.emit('module.option_updated', { slug, option: key, value: outcome.value });
  }
  return { extras, notUpdated };
}
