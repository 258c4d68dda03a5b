/**
 * The abilities registry (WordPress's WP_Abilities_Registry and WP_Ability, docs/spec/abilities-mcp.md
 * A.1) and the one way an ability runs, whichever door the call came through (`wp-abilities/v1`,
 * the MCP servers): normalize the input (the schema's top-level `default`), check it against
 * `input_schema` with the REST layer's schema validator, ask the permission callback, run, check
 * the result against `output_schema`. Observers hear every run (WordPress's
 * `wp_before_execute_ability` / `wp_after_execute_ability`): the audit log's hook point.
 */
import type { JsonValue } from '../../core/json.js';
import type {
  AbilityAnnotations,
  AbilityCaller,
  AbilityCategoryDefinition,
  AbilityDefinition,
  AbilityMeta,
  AbilitySchema,
} from '../../plugins/ability-types.js';
import { sanitizeSchemaValue, validateSchemaValue } from '../../rest/args/schema-value.js';
import { authorizationRequiredStatus, isRestError, type RestError } from '../../rest/errors.js';
import { abilityError } from './errors.js';

/** `namespace/name`: lowercase letters, digits and hyphens, exactly one slash. */
const NAME = /^[a-z0-9-]+\/[a-z0-9-]+$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The meta as WordPress fills it: `annotations` (readonly, destructive, idempotent default null) and `show_in_rest` (default false) first. */
export interface PreparedMeta {
  readonly annotations: {
    readonly readonly: boolean | null;
    readonly destructive: boolean | null;
    readonly idempotent: boolean | null;
  } & AbilityAnnotations;
  readonly show_in_rest: boolean;
  readonly mcp?: AbilityMeta['mcp'];
  readonly [key: string]: unknown;
}

export interface Ability {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly category: string;
  /** `{}` when none was declared (WordPress's empty array; sent as `[]`). */
  readonly inputSchema: AbilitySchema | null;
  readonly outputSchema: AbilitySchema | null;
  readonly meta: PreparedMeta;
  readonly definition: AbilityDefinition;
}

export interface AbilityCategory {
  readonly slug: string;
  readonly label: string;
  readonly description: string;
  readonly meta: { readonly [key: string]: JsonValue };
}

export type RunOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: RestError };

/**
 * Told of every run that passed its checks, before and after the ability's own code, and of every
 * run refused by the ability's permission or the caller's token scope (`denied`): the audit log.
 */
export interface RunObserver {
  before?(ability: Ability, input: unknown, caller: AbilityCaller): void | Promise<void>;
  after?(ability: Ability, input: unknown, outcome: RunOutcome, caller: AbilityCaller): void | Promise<void>;
  denied?(ability: Ability, input: unknown, error: RestError, caller: AbilityCaller): void | Promise<void>;
}

function isEmptySchema(schema: AbilitySchema | undefined): boolean {
  return schema === undefined || Object.keys(schema).length === 0;
}

export class AbilityRegistry {
  private readonly abilities = new Map<string, Ability>();
  private readonly categoryMap = new Map<string, AbilityCategory>();
  private readonly observers: RunObserver[] = [];
  /**
   * Results already checked against their ability's output schema. Speed: an ability that answers
   * the same frozen value while its data is unchanged (siteward/list-modules, from the module
   * list's cache) has it checked once, not on every run; its encoded bytes are reused too
   * (JsonEncoder). Frozen means frozen all the way down, as the encoder assumes.
   */
  private readonly checkedOutputs = new WeakMap<object, Ability>();

  /** WordPress's `wp_register_ability_category`. Throws on a bad or taken slug (a developer mistake, found at start-up). */
  registerCategory(slug: string, definition: AbilityCategoryDefinition): void {
    if (!SLUG.test(slug)) throw new Error(`ability category "${slug}": a slug is lowercase letters, digits and single hyphens`);
    if (this.categoryMap.has(slug)) throw new Error(`ability category "${slug}" is already registered`);
    if (!definition.label || !definition.description) throw new Error(`ability category "${slug}" needs a label and a description`);
    this.categoryMap.set(slug, { slug, label: definition.label, description: definition.description, meta: definition.meta ?? {} });
  }

  /** WordPress's `wp_register_ability`. Throws on a bad or taken name, a missing label, description or unknown category. */
  register(name: string, definition: AbilityDefinition): void {
    if (!NAME.test(name)) throw new Error(`ability "${name}": a name is namespace/name in lowercase letters, digits and hyphens`);
    if (this.abilities.has(name)) throw new Error(`ability "${name}" is already registered`);
    if (!definition.label || !definition.description) throw new Error(`ability "${name}" needs a label and a description`);
    if (!this.categoryMap.has(definition.category)) {
      throw new Error(`ability "${name}": category "${definition.category}" is not registered (register it first)`);
    }
    const given = definition.meta ?? {};
    const { annotations, show_in_rest: showInRest, ...rest } = given;
    const meta: PreparedMeta = {
      annotations: { readonly: null, destructive: null, idempotent: null, ...annotations },
      show_in_rest: showInRest ?? false,
      ...rest,
    };
    this.abilities.set(name, {
      name,
      label: definition.label,
      description: definition.description,
      category: definition.category,
      inputSchema: isEmptySchema(definition.input_schema) ? null : definition.input_schema!,
      outputSchema: isEmptySchema(definition.output_schema) ? null : definition.output_schema!,
      meta,
      definition: definition as AbilityDefinition,
    });
  }

  get(name: string): Ability | undefined {
    return this.abilities.get(name);
  }

  /** Every ability, in registration order. */
  list(): Ability[] {
    return [...this.abilities.values()];
  }

  category(slug: string): AbilityCategory | undefined {
    return this.categoryMap.get(slug);
  }

  categories(): AbilityCategory[] {
    return [...this.categoryMap.values()];
  }

  observe(observer: RunObserver): void {
    this.observers.push(observer);
  }

  /** `normalize_input`: no input means the schema's top-level `default` (or none). */
  normalizeInput(ability: Ability, input: unknown): unknown {
    if (input !== null && input !== undefined) return input;
    if (ability.inputSchema && Object.hasOwn(ability.inputSchema, 'default')) return ability.inputSchema.default;
    return null;
  }

  /** `validate_input`: the input, converted to the schema's types, or `ability_invalid_input`. */
  checkInput(ability: Ability, input: unknown): RunOutcome {
    if (ability.inputSchema === null) {
      return input === null
        ? { ok: true, value: null }
        : { ok: false, error: abilityError('missing_input_schema', { name: ability.name }) };
    }
    const valid = validateSchemaValue(input, ability.inputSchema, 'input');
    if (valid !== true) return { ok: false, error: abilityError('invalid_input', { name: ability.name, reason: valid }) };
    return { ok: true, value: sanitizeSchemaValue(input, ability.inputSchema) };
  }

  /** `check_permissions`: true, false, or the callback's own error. A callback that throws refuses. */
  async checkPermission(ability: Ability, input: unknown, caller: AbilityCaller): Promise<boolean | RestError> {
    const answer = await ability.definition.permission(input, caller);
    return isRestError(answer) ? answer : answer === true;
  }

  /**
   * WP_Ability::execute(): input, permission (`ability_invalid_permissions`), the observers, the
   * callback, the output check (`ability_invalid_output`). Every door calls this.
   */
  async run(ability: Ability, rawInput: unknown, caller: AbilityCaller): Promise<RunOutcome> {
    const checked = this.checkInput(ability, this.normalizeInput(ability, rawInput));
    if (!checked.ok) return checked;
    const input = checked.value;
    if ((await this.checkPermission(ability, input, caller)) !== true) {
      const status = authorizationRequiredStatus(caller.user.id !== 0);
      const error = abilityError('invalid_permissions', { name: ability.name }, { status });
      await this.denied(ability, input, error, caller);
      return { ok: false, error };
    }
    for (const observer of this.observers) await observer.before?.(ability, input, caller);
    const outcome = await this.execute(ability, input, caller);
    for (const observer of this.observers) await observer.after?.(ability, input, outcome, caller);
    return outcome;
  }

  /** Tells the observers of a run refused before it ran (by a permission checked outside `run`, or a token's scope). */
  async denied(ability: Ability, input: unknown, error: RestError, caller: AbilityCaller): Promise<void> {
    for (const observer of this.observers) await observer.denied?.(ability, input, error, caller);
  }

  private checkedBefore(ability: Ability, result: unknown): boolean {
    return result !== null && typeof result === 'object' && this.checkedOutputs.get(result) === ability;
  }

  private async execute(ability: Ability, input: unknown, caller: AbilityCaller): Promise<RunOutcome> {
    const result = await ability.definition.execute(input, caller);
    if (isRestError(result)) return { ok: false, error: result };
    if (ability.outputSchema !== null && !this.checkedBefore(ability, result)) {
      const valid = validateSchemaValue(result, ability.outputSchema, 'output');
      if (valid !== true) return { ok: false, error: abilityError('invalid_output', { name: ability.name, reason: valid }) };
      if (result !== null && typeof result === 'object' && Object.isFrozen(result)) this.checkedOutputs.set(result, ability);
    }
    return { ok: true, value: result };
  }
}

/** The REST run rule (the run controller's `validate_request_method`): readonly → GET, destructive and idempotent → DELETE, else POST. */
export function runMethod(ability: Ability): 'GET' | 'DELETE' | 'POST' {
  const { readonly, destructive, idempotent } = ability.meta.annotations;
  if (readonly) return 'GET';
  if (destructive && idempotent) return 'DELETE';
  return 'POST';
}
