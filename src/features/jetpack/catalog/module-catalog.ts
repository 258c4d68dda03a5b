/** The module catalog: the built-in modules plus those plugins register (docs/spec/jetpack-v4-reference.md §5). */
import { ModuleDefinitionError, definitionMessages as m } from '../errors.js';
import type { CatalogModule, ModuleDefinition, ModuleOptionDefinition, OptionStorage } from '../module-types.js';
import { reservedOptionNames } from '../state-keys.js';
import { BUILTIN_MODULES } from './builtin-modules.js';
import { normalizeModule } from './module-definition-check.js';

/** Where an option is stored: its declared storage, else a site option named like its key. */
export function storageOf(key: string, option: ModuleOptionDefinition): OptionStorage {
  return option.storage ?? { option: key };
}

function byOrder(a: CatalogModule, b: CatalogModule): number {
  return a.sort - b.sort || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

/**
 * @example
 * const catalog = new ModuleCatalog();           // the 37 built-in modules
 * catalog.register({ slug: 'my-feature', name: 'My Feature', description: '…', introduced: '1.0' });
 * catalog.ordered(false).map((mod) => mod.slug);
 */
export class ModuleCatalog {
  private readonly modules = new Map<string, CatalogModule>();
  private sorted: CatalogModule[] | null = null;

  constructor(builtIns: readonly ModuleDefinition[] = BUILTIN_MODULES) {
    for (const def of builtIns) this.add(normalizeModule(def, true));
  }

  /**
   * Adds a plugin's module. Throws ModuleDefinitionError for an invalid definition, a slug that
   * is taken, or option storage that would overwrite the plugin's state or another module's options.
   */
  register(def: ModuleDefinition): CatalogModule {
    const mod = normalizeModule(def, false);
    const taken = new Set([...reservedOptionNames, ...this.storageOptionNames()]);
    for (const [key, option] of Object.entries(mod.options ?? {})) {
      const name = storageOf(key, option).option;
      if (taken.has(name)) throw new ModuleDefinitionError(m.badOption(mod.slug, key, `the storage option "${name}" is already in use`));
    }
    return this.add(mod);
  }

  private add(mod: CatalogModule): CatalogModule {
    if (this.modules.has(mod.slug)) throw new ModuleDefinitionError(m.duplicate(mod.slug));
    this.modules.set(mod.slug, mod);
    this.sorted = null;
    return mod;
  }

  /** The module with exactly this slug (slugs are compared case-sensitively, docs/spec/jetpack-v4-reference.md §9). */
  get(slug: string): CatalogModule | undefined {
    return this.modules.get(slug);
  }

  has(slug: string): boolean {
    return this.modules.has(slug);
  }

  get size(): number {
    return this.modules.size;
  }

  /** Every module by `sort`, then slug (a stable order for ties the reference leaves open). */
  all(): readonly CatalogModule[] {
    this.sorted ??= [...this.modules.values()].sort(byOrder);
    return this.sorted;
  }

  /** The /module/all order (docs/spec/jetpack-v4-reference.md §5.3): when not connected, connection-requiring modules go last. */
  ordered(connected: boolean): CatalogModule[] {
    const all = this.all();
    if (connected) return [...all];
    return [...all.filter((mod) => !mod.requires_connection), ...all.filter((mod) => mod.requires_connection)];
  }

  /** The default active set (docs/spec/jetpack-v4-reference.md §5.2): "Yes" modules, plus "Public" ones while the site is public. */
  defaultSlugs(isPublic: boolean): string[] {
    return this.all()
      .filter((mod) => mod.auto_activate === 'Yes' || (isPublic && mod.auto_activate === 'Public'))
      .map((mod) => mod.slug);
  }

  /** Modules whose `feature` list contains "Jumpstart" (docs/spec/jetpack-v4-reference.md §3.14). */
  jumpstartModules(): CatalogModule[] {
    return this.all().filter((mod) => mod.feature.includes('Jumpstart'));
  }

  /** Every site option that holds some module's options: exactly what `reset/options` clears. */
  storageOptionNames(): string[] {
    const names = new Set<string>();
    for (const mod of this.modules.values()) {
      for (const [key, option] of Object.entries(mod.options ?? {})) names.add(storageOf(key, option).option);
    }
    return [...names];
  }
}
