/** Checks a module definition before it joins the catalog and fills its defaults. */
import { ModuleDefinitionError, definitionMessages as m } from '../errors.js';
import type { CatalogModule, ModuleDefinition, ModuleOptionDefinition } from '../module-types.js';

const OPTION_TYPES = ['string', 'boolean', 'integer', 'number', 'array', 'object'];
const SLUG = /^[a-z-]+$/;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function checkOption(slug: string, key: string, option: ModuleOptionDefinition): void {
  const fail = (problem: string) => {
    throw new ModuleDefinitionError(m.badOption(slug, key, problem));
  };
  if (key === '') fail('the key must not be empty');
  if (typeof option !== 'object' || option === null) fail('the definition must be an object');
  if (typeof option.description !== 'string') fail('"description" must be a string');
  if (!OPTION_TYPES.includes(option.type)) fail(`"type" must be one of ${OPTION_TYPES.join(', ')}`);
  if (option.default === undefined) fail('"default" is required');
  if (option.enum !== undefined && !Object.values(option.enum).every((label) => typeof label === 'string')) {
    fail('"enum" must map each value to a label');
  }
  for (const fn of ['validate', 'sanitize', 'encode', 'decode', 'write', 'read'] as const) {
    if (option[fn] !== undefined && typeof option[fn] !== 'function') fail(`"${fn}" must be a function`);
  }
  if (option.storage !== undefined && (typeof option.storage.option !== 'string' || option.storage.option === '')) {
    fail('"storage.option" must be a non-empty string');
  }
}

/** Validates a definition and answers the catalog's normalized module; throws ModuleDefinitionError. */
export function normalizeModule(def: ModuleDefinition, builtIn: boolean): CatalogModule {
  const slug = typeof def?.slug === 'string' ? def.slug : String(def?.slug);
  if (!SLUG.test(slug)) throw new ModuleDefinitionError(m.badSlug(slug));
  for (const field of ['name', 'description', 'introduced'] as const) {
    if (typeof def[field] !== 'string' || def[field] === '') throw new ModuleDefinitionError(m.missing(slug, field));
  }
  for (const field of ['sort', 'recommendation_order'] as const) {
    if (def[field] !== undefined && !Number.isInteger(def[field])) throw new ModuleDefinitionError(m.badField(slug, field, 'an integer'));
  }
  for (const field of ['deactivate', 'free', 'requires_connection'] as const) {
    if (def[field] !== undefined && typeof def[field] !== 'boolean') throw new ModuleDefinitionError(m.badField(slug, field, 'a boolean'));
  }
  for (const field of ['module_tags', 'feature'] as const) {
    if (def[field] !== undefined && !isStringList(def[field]))
      throw new ModuleDefinitionError(m.badField(slug, field, 'a list of strings'));
  }
  for (const field of ['jumpstart_desc', 'changed', 'additional_search_queries', 'long_description'] as const) {
    if (def[field] !== undefined && typeof def[field] !== 'string') throw new ModuleDefinitionError(m.badField(slug, field, 'a string'));
  }
  if (def.auto_activate !== undefined && !['Yes', 'No', 'Public'].includes(def.auto_activate)) {
    throw new ModuleDefinitionError(m.badField(slug, 'auto_activate', '"Yes", "No" or "Public"'));
  }
  if (def.runtime !== undefined && !['site', 'siteward'].includes(def.runtime)) {
    throw new ModuleDefinitionError(m.badField(slug, 'runtime', '"site" or "siteward"'));
  }
  if (def.options !== undefined && (typeof def.options !== 'object' || def.options === null)) {
    throw new ModuleDefinitionError(m.badField(slug, 'options', 'an object of option definitions'));
  }
  const options = def.options && Object.keys(def.options).length > 0 ? def.options : null;
  for (const [key, option] of Object.entries(options ?? {})) checkOption(slug, key, option);

  // Defaults of a module file header (docs/spec/jetpack-v4-reference.md §5.1).
  return {
    slug,
    name: def.name,
    description: def.description,
    jumpstart_desc: def.jumpstart_desc ?? '',
    sort: def.sort ?? 10,
    recommendation_order: def.recommendation_order ?? 20,
    introduced: def.introduced,
    changed: def.changed ?? '',
    deactivate: def.deactivate ?? true,
    free: def.free ?? true,
    requires_connection: def.requires_connection ?? true,
    auto_activate: def.auto_activate ?? 'No',
    module_tags: def.module_tags && def.module_tags.length > 0 ? [...def.module_tags] : ['Other'],
    feature: def.feature && def.feature.length > 0 ? [...def.feature] : ['Other'],
    additional_search_queries: def.additional_search_queries ?? '',
    long_description: def.long_description ?? '',
    runtime: def.runtime ?? 'site',
    options,
    builtIn,
  };
}
