/**
 * Every ability run, from either door (`wp-abilities/v1` or MCP), as an audit event
 * `ability.run` (issue 42): which ability, its input with secret-looking members replaced, how it
 * ended, and who ran it with which credential. What the ability changed is recorded by the
 * operation it runs, in that change's own transaction; this event says the change came from an
 * agent's call.
 *
 * Runs of readonly abilities collapse (docs/audit-log.md "Readonly ability runs"), as failed logins
 * do: the first run of a kind in a window is written at once, identical repeats within the window
 * only bump a counter in this process, and one more event with `count`, `first_time` and
 * `last_time` records them when the window ends. Runs of any other ability are each their own event.
 */
import type { AbilityCaller } from '../../plugins/ability-types.js';
import { canonicalJson } from '../../store/audit-chain.js';
import type { AuditEventInput, AuditResult } from '../../wire/audit.js';
import { callerActor, type Ability, type AbilityRegistry } from '../abilities/index.js';
import { isSecretName } from './recorded-options.js';

/** The window identical readonly runs collapse into. */
export const ABILITY_RUN_WINDOW_MS = 60_000;
/**
 * At most this many kinds of readonly run are counted at once per process; past it a run is
 * written as its own event (the map stays bounded whatever callers send).
 */
export const ABILITY_RUN_MAX_KINDS = 10_000;

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

/** One kind of readonly run in its window: the event its first run wrote, and the repeats since. */
interface Kind {
  readonly event: AuditEventInput;
  readonly windowEnd: number;
  repeats: number;
  first: number;
  last: number;
}

/**
 * The readonly runs of this process, by kind. A kind is everything the event records: the
 * ability, the door, the user and credential, the redacted input, the result and error code; so
 * the summary event says exactly what each repeat would have said, but for its time.
 */
export class ReadonlyRuns {
  private readonly kinds = new Map<string, Kind>();

  constructor(
    private readonly append: (events: readonly AuditEventInput[]) => Promise<void>,
    private readonly warn: (error: unknown) => void,
    private readonly clock: () => number,
    private readonly windowMs = ABILITY_RUN_WINDOW_MS,
  ) {}

  /** Records one run: written at once when it is the first of its kind in a window, else counted. */
  async record(ability: Ability, input: unknown, result: AuditResult, errorCode: string | null, caller: AbilityCaller): Promise<void> {
    if (ability.meta.annotations.readonly !== true) {
      await this.write(abilityRunEvent(ability.name, input, result, errorCode, caller));
      return;
    }
    const now = this.clock();
    const key = kindKey(ability.name, input, result, errorCode, caller);
    const kind = this.kinds.get(key);
    // Speed: a repeat of a kind already written in this window costs a map lookup, not a store
    // transaction (issue 42's bench: a readonly ability at its route's cost). Its count is durable
    // once the window ends (the job below, the kind's next run, or the graceful stop).
    if (kind !== undefined && now < kind.windowEnd) {
      if (kind.repeats === 0) kind.first = now;
      kind.repeats += 1;
      kind.last = Math.max(kind.last, now);
      return;
    }
    const pending = kind === undefined ? [] : this.summaries([[key, kind]]);
    const event = abilityRunEvent(ability.name, input, result, errorCode, caller);
    if (this.kinds.size < ABILITY_RUN_MAX_KINDS || kind !== undefined)
      this.kinds.set(key, { event, windowEnd: now + this.windowMs, repeats: 0, first: now, last: now });
    await this.write(...pending, event);
  }

  /** Writes the repeats of every kind whose window has ended by `now` (all kinds when `now` is Infinity) and forgets those kinds. */
  async flush(now: number): Promise<void> {
    const ended = [...this.kinds].filter(([, kind]) => kind.windowEnd <= now);
    const events = this.summaries(ended);
    if (events.length > 0) await this.write(...events);
  }

  /** The summary events of `ended` (kinds with repeats), removing them from the map. */
  private summaries(ended: readonly (readonly [string, Kind])[]): AuditEventInput[] {
    const events: AuditEventInput[] = [];
    for (const [key, kind] of ended) {
      this.kinds.delete(key);
      if (kind.repeats > 0) events.push({ ...kind.event, count: kind.repeats, first_time: kind.first, last_time: kind.last });
    }
    return events;
  }

  private async write(...events: AuditEventInput[]): Promise<void> {
    await this.append(events).catch(this.warn);
  }
}

/** A kind's key: what the event records but its time (the credential's audit form follows from `caller.credential`). */
function kindKey(name: string, input: unknown, result: AuditResult, errorCode: string | null, caller: AbilityCaller): string {
  const inputText = input === undefined ? '' : canonicalJson(redacted(input));
  return `${name}\n${caller.via}\n${result}\n${errorCode ?? ''}\n${caller.user.id}\n${caller.user.login}\n${caller.credential ?? ''}\n${inputText}`;
}

/**
 * Records each run once it has ended, and each run refused by the ability's permission or by the
 * token's scope (`denied`, with the refusal's code); a store that cannot write is logged, never
 * fails the run.
 */
export function recordAbilityRuns(registry: AbilityRegistry, runs: ReadonlyRuns): void {
  registry.observe({
    after: (ability, input, outcome, caller) =>
      runs.record(ability, input, outcome.ok ? 'ok' : 'failed', outcome.ok ? null : outcome.error.code, caller),
    denied: (ability, input, error, caller) => runs.record(ability, input, 'denied', error.code, caller),
  });
}
