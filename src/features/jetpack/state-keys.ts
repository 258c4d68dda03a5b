/**
 * Names of the site options holding the plugin's own state (docs/spec/jetpack-v4-reference.md §8). Module options live
 * under the storage names of their definitions (catalog/options/*).
 */
import { SITE_PUBLIC_OPTION } from '../jetpack-v4/site-visibility.js';

export const stateKeys = {
  /** List of activated module slugs; absent on a fresh site, which means the default set. */
  activeModules: 'active_modules',
  /** Jump Start state (docs/spec/jetpack-v4-reference.md §7); absent means `new_connection` (docs/spec/compat.md §9). */
  jumpstart: 'jumpstart',
  /** What the last Jump Start turned on and changed, so that deactivating it can undo exactly that. */
  jumpstartChanges: 'jumpstart_changes',
  /** Map notice → true. */
  dismissedNotices: 'jetpack_dismissed_notices',
  /** Holiday snow setting: "letitsnow" or "". */
  holidaySnow: 'jetpack_holiday_snow_enabled',
  /** Whether the site is public (default true): "Public" modules join the default set. Not reset. */
  public: SITE_PUBLIC_OPTION,
} as const;

/** Options a registered module may not use as storage. */
export const reservedOptionNames: readonly string[] = Object.values(stateKeys);
