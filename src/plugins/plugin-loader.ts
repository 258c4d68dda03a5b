import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginRegister, SitewardApi } from './api.js';

/** A plugin that could not be loaded or whose `register` failed: start-up stops with this message. */
export class PluginLoadError extends Error {
  override name = 'PluginLoadError';
}

function isPath(entry: string): boolean {
  return entry.startsWith('.') || entry.startsWith('/') || path.isAbsolute(entry) || /\.(c|m)?js$/.test(entry);
}

async function importEntry(entry: string, cwd: string): Promise<unknown> {
  if (isPath(entry)) return import(pathToFileURL(path.resolve(cwd, entry)).href);
  try {
    // An installed npm package, resolved from the operator's project first.
    return await import(pathToFileURL(createRequire(path.join(cwd, 'package.json')).resolve(entry)).href);
  } catch {
    return import(entry);
  }
}

/** Loads one plugin entry (a path or an installed package name) and returns its register function. */
export async function loadPlugin(entry: string, cwd: string): Promise<PluginRegister> {
  let mod: unknown;
  try {
    mod = await importEntry(entry, cwd);
  } catch (error) {
    throw new PluginLoadError(`Plugin "${entry}" could not be loaded: ${(error as Error).message}`);
  }
  const register = (mod as { default?: unknown }).default;
  if (typeof register !== 'function') {
    throw new PluginLoadError(`Plugin "${entry}" must default-export a register(api) function`);
  }
  return register as PluginRegister;
}

/** Runs a plugin's register(api), sync or async; a throw stops start-up with the plugin's name. */
export async function runPlugin(name: string, register: PluginRegister, api: SitewardApi): Promise<void> {
  try {
    await register(api);
  } catch (error) {
    throw new PluginLoadError(`Plugin "${name}" failed to register: ${(error as Error).message}`);
  }
}
