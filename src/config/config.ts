/**
 * Reading the configuration: the optional `siteward.config.json`, then the environment, then
 * command-line overrides, each setting read by its own declaration (src/config/setting.ts). The
 * declarations come in groups: the core's (./core-settings.ts) and each feature's own; the
 * composition root gathers them (src/settings.ts, which exports `loadConfig`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { coreSettings } from './core-settings.js';
import { ConfigError, type SettingGroup, type SettingInput, type SettingValues, type ValuesOf } from './setting.js';

export { ConfigError } from './setting.js';

/**
 * Siteward's configuration after validation: the core settings, and those of every feature,
 * each of which adds its own by augmenting this interface from its `settings.ts`:
 * `declare module '../../config/config.js' { interface Config extends SettingValues<typeof mySettings> {} }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Config extends SettingValues<typeof coreSettings> {}

/** A group of settings and who declares it (`core` or a feature's name), for the docs. */
export interface OwnedSettings {
  readonly owner: string;
  readonly group: SettingGroup;
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** Path of the JSON config file (must exist); default `siteward.config.json` in `cwd` when present; null: none. */
  configFile?: string | null;
  cwd?: string;
  /** Command-line overrides (highest priority). */
  overrides?: Partial<Record<keyof Config, unknown>>;
}

/** Every declared setting by config key; a key or variable declared twice is a programming error. */
export function settingsByKey(groups: readonly OwnedSettings[]): Map<string, OwnedSettings['group']['settings'][string]> {
  const byKey = new Map<string, OwnedSettings['group']['settings'][string]>();
  const envs = new Set<string>();
  for (const { owner, group } of groups) {
    for (const [key, setting] of Object.entries(group.settings)) {
      if (byKey.has(key) || envs.has(setting.env)) throw new Error(`setting ${key} (${setting.env}) of ${owner} is declared twice`);
      byKey.set(key, setting);
      envs.add(setting.env);
    }
  }
  return byKey;
}

/** Reads and validates the settings `groups` declare (core first: later defaults may derive from it). */
export function loadSettings(groups: readonly OwnedSettings[], options: LoadOptions = {}): Config {
  const settings = settingsByKey(groups);
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = options.configFile === null ? null : (options.configFile ?? path.join(cwd, 'siteward.config.json'));
  const raw: Record<string, unknown> = {};
  if (file !== null && existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${file} must hold a JSON object`);
    for (const key of Object.keys(parsed)) {
      if (!settings.has(key)) throw new ConfigError(`${file}: unknown setting "${key}" (known: ${[...settings.keys()].join(', ')})`);
    }
    Object.assign(raw, parsed);
  } else if (options.configFile) {
    throw new ConfigError(`config file ${options.configFile} does not exist`);
  }
  for (const [key, setting] of settings) {
    const value = env[setting.env];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  Object.assign(raw, options.overrides ?? {});

  const envOf = (key: string) => settings.get(key)?.env ?? key;
  const labelOf = (key: string) => `${envOf(key)} (config "${key}")`;
  const rawOf = (key: string) => raw[key];
  const values: Record<string, unknown> = {};
  for (const { group } of groups) {
    for (const [key, setting] of Object.entries(group.settings)) {
      const input: SettingInput = { raw: raw[key], label: labelOf(key), cwd, values, rawOf, labelOf, envOf };
      values[key] = setting.read(input);
    }
    group.check?.(values as ValuesOf<typeof group.settings>, { rawOf, labelOf, envOf, cwd });
  }
  return values as unknown as Config;
}
