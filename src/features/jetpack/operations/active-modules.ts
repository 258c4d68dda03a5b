/** The stored list of activated modules (`active_modules`) and the default set it starts from. */
import type { JsonValue } from '../../../core/json.js';
import type { OptionsRepo } from '../../../store/types.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { stateKeys } from '../state-keys.js';

export { isSitePublic } from '../../jetpack-v4/site-visibility.js';
import { isSitePublic } from '../../jetpack-v4/site-visibility.js';

/** The default active set for the site's current visibility. */
export async function defaultActiveSlugs(options: OptionsRepo, catalog: ModuleCatalog): Promise<string[]> {
  return catalog.defaultSlugs(await isSitePublic(options));
}

function asSlugList(value: JsonValue | undefined): string[] | null {
  return Array.isArray(value) ? value.filter((slug): slug is string => typeof slug === 'string') : null;
}

/** The activated slugs: the stored list, or the default set on a fresh site. */
export async function readActiveSlugs(options: OptionsRepo, catalog: ModuleCatalog): Promise<string[]> {
  return asSlugList(await options.get(stateKeys.activeModules)) ?? defaultActiveSlugs(options, catalog);
}

/**
 * Atomically rewrites the list with `change` (which gets the current list, the default set when
 * never stored). Returns the list before and after the change.
 */
export async function updateActiveSlugs(
  options: OptionsRepo,
  catalog: ModuleCatalog,
  change: (current: readonly string[]) => string[],
): Promise<{ before: string[]; after: string[] }> {
  const defaults = await defaultActiveSlugs(options, catalog);
  let before: string[] = [];
  let after: string[] = [];
  await options.update(stateKeys.activeModules, (current) => {
    before = asSlugList(current) ?? defaults;
    after = change(before);
    // Nothing changed (e.g. activating a module the default set has): nothing is written, so
    // the stored state never changes without its audit event.
    return after.length === before.length && after.every((slug, i) => slug === before[i]) ? current : after;
  });
  return { before, after };
}

/** Slugs in `after` but not in `before`, and the other way round. */
export function diffSlugs(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  return { added: after.filter((s) => !before.includes(s)), removed: before.filter((s) => !after.includes(s)) };
}
