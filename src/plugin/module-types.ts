import type { JsonValue } from '../rest/types.js';

/** Result of an option validator: true when valid, otherwise the message (`<param> must be …`). */
export type OptionValidation = true | string;

/** One option of a module (jetpack-v4-reference.md §6). */
export interface ModuleOptionDefinition {
  description: string;
  type: 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object';
  default: JsonValue;
  /** value → label, shown as an object in responses. */
  enum?: Record<string, string>;
  /** Name of the sanitizer, shown in responses as the reference's `sanitize_callback` string. */
  sanitize_callback?: string;
  /** Checks a sent value; `param` is the option key. */
  validate?: (value: unknown, param: string) => OptionValidation;
  /** Turns a valid sent value into the stored value. */
  sanitize?: (value: unknown) => JsonValue;
}

/** A module of the catalog (jetpack-v4-reference.md §5.1). Plugins add their own with `api.registerModule`. */
export interface ModuleDefinition {
  slug: string;
  name: string;
  description: string;
  jumpstart_desc?: string;
  sort?: number;
  recommendation_order?: number;
  introduced: string;
  changed?: string;
  deactivate?: boolean;
  free?: boolean;
  requires_connection?: boolean;
  auto_activate?: 'Yes' | 'No' | 'Public';
  module_tags?: string[];
  feature?: string[];
  additional_search_queries?: string;
  long_description?: string;
  /** `siteward` when Siteward runs the feature itself, `site` when it only stores state for the site's front end. */
  runtime?: 'siteward' | 'site';
  options?: Record<string, ModuleOptionDefinition>;
}
