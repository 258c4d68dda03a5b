/**
 * Every ability run, from either door (`wp-abilities/v1` or MCP), as an audit event
 * `ability.run` (issue 42): which ability, its input with secret-looking members replaced, how it
 * ended, and who ran it with which credential. What the ability changed is recorded by the
 * operation it runs, in that change's own transaction; this event says the change came from an
 * agent's call.
 */
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { AuditEventInput, AuditResult } from '../../wire/audit.js';
import { callerActor, type AbilityRegistry } from '../abilities/index.js';
import { isSecretName } from './recorded-options.js';

/** `input` with every member whose name looks like a secret replaced, at any depth. */
export function redacted(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(redacted);
  if (input === null || typeof input !== 'object') return input;
  return Object.fromEntries(
    Object.entries(input as Record<string, unknown>).map(([key, value]) => [key, isSecretName(key) ? '[redacted]' : redacted(value)]),
  );
}

export function abilityRunEvent(
  name: string,
  input: unknown,
  result: AuditResult,
  errorCode: string | null,
  caller: AbilityCaller,
): AuditEventInput {
  return {
    action: 'ability.run',
    result,
    actor: callerActor(caller),
    client_ip: '',
    user_agent: '',
    request_id: '',
    object: { type: 'ability', id: name, name },
    changes: {
      input: { before: null, after: redacted(input) },
      via: { before: null, after: caller.via },
      ...(errorCode === null ? {} : { error: { before: null, after: errorCode } }),
    },
  };
}

/**
 * Records each run once it has ended, and each run refused by the ability's permission or by the
 * token's scope (`denied`, with the refusal's code); a store that cannot write is logged, never
 * fails the run.
 */
export function recordAbilityRuns(
  registry: AbilityRegistry,
  append: (events: readonly AuditEventInput[]) => Promise<void>,
  warn: (error: unknown) => void,
): void {
  registry.observe({
    after: async (ability, input, outcome, caller) => {
      const event = abilityRunEvent(ability.name, input, outcome.ok ? 'ok' : 'failed', outcome.ok ? null : outcome.error.code, caller);
      await append([event]).catch(warn);
    },
    denied: async (ability, input, error, caller) => {
      await append([abilityRunEvent(ability.name, input, 'denied', error.code, caller)]).catch(warn);
    },
  });
}
