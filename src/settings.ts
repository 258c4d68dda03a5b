/**
 * Part of the composition root: gathers the settings the core and every built-in feature
 * declare, and reads the configuration from them (file, environment, overrides).
 */
import { loadSettings, type Config, type LoadOptions, type OwnedSettings } from './config/config.js';
import { coreSettings } from './config/core-settings.js';
import { builtInFeatures } from './features/index.js';

export { ConfigError, type Config, type LoadOptions } from './config/config.js';

/** The core's settings first (features' defaults may derive from them), then each feature's, in feature order. */
export const builtInSettings: readonly OwnedSettings[] = [
  { owner: 'core', group: coreSettings },
  ...builtInFeatures.flatMap((f) => (f.settings ? [{ owner: f.name, group: f.settings }] : [])),
];

/** Reads the optional config file, then the environment, then overrides, and validates everything. */
export function loadConfig(options: LoadOptions = {}): Config {
  return loadSettings(builtInSettings, options);
}
