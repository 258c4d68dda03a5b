/**
 * The Abilities API contract (WordPress's `wp_register_ability`, docs/spec/abilities-mcp.md A.1):
 * what features and plugins register through `api.registerAbility(name, definition)` and
 * `api.registerAbilityCategory(slug, definition)`. The registry, the `wp-abilities/v1` routes and
 * the MCP servers live in src/features/abilities; an ability knows nothing of HTTP or MCP.
 */
import type { JsonValue } from '../core/json.js';
import type { RestError } from '../rest/errors.js';
import type { Principal } from '../rest/types.js';

/** A JSON Schema, as plain JSON (WordPress's `input_schema`/`output_schema` arrays). */
export type AbilitySchema = { readonly [key: string]: unknown };

/** `meta.annotations`: hints for clients (MCP's readOnlyHint, destructiveHint, idempotentHint) and the REST method rule. */
export interface AbilityAnnotations {
  /** Tells an agent how and when to use the ability. */
  readonly instructions?: string;
  /** Changes nothing: runs by GET. */
  readonly readonly?: boolean | null;
  /** May destroy or overwrite data (WordPress's default: true). With `idempotent`, runs by DELETE. */
  readonly destructive?: boolean | null;
  /** Repeating it with the same input changes nothing more. */
  readonly idempotent?: boolean | null;
}

export interface AbilityMeta {
  readonly annotations?: AbilityAnnotations;
  /** Listed and runnable over `wp-abilities/v1` (default false). */
  readonly show_in_rest?: boolean;
  /** Offered to MCP clients (`public`), as a tool (default), a resource (with `uri`) or a prompt. */
  readonly mcp?: { readonly public?: boolean; readonly type?: 'tool' | 'resource' | 'prompt'; readonly uri?: string };
  readonly [key: string]: unknown;
}

/** Who runs an ability, whichever door (REST, MCP) they came through. */
export interface AbilityCaller {
  readonly user: Principal;
  /** The credential that authenticated the call: an application password's uuid, an OAuth client id, or null for a login cookie. */
  readonly credential: string | null;
  /** Which door: `rest` or `mcp`. */
  readonly via: 'rest' | 'mcp';
}

/** What an execute callback answers: a JSON value (checked against `output_schema`), or a RestError. */
export type AbilityResult = unknown;

export interface AbilityDefinition<I = unknown> {
  readonly label: string;
  readonly description: string;
  /** A registered category's slug. */
  readonly category: string;
  /** Without one the ability takes no input. A top-level `default` is the input when none is sent. */
  readonly input_schema?: AbilitySchema;
  readonly output_schema?: AbilitySchema;
  /** Receives the input, validated against `input_schema` and converted to its types. */
  execute(input: I, caller: AbilityCaller): AbilityResult | Promise<AbilityResult>;
  /** True lets the caller run it; false or an error refuses. */
  permission(input: I, caller: AbilityCaller): boolean | RestError | Promise<boolean | RestError>;
  readonly meta?: AbilityMeta;
}

export interface AbilityCategoryDefinition {
  readonly label: string;
  readonly description: string;
  readonly meta?: { readonly [key: string]: JsonValue };
}
