/** The brute-force rules and their pure decisions, apart from the store (protect-repo.ts applies them in a transaction). */

/**
 * Brute-force thresholds (docs/spec/services-facts.md §3.2): `maxFailures` failed logins from one counter
 * key within `windowSeconds` block it for `blockSeconds`; the block that makes
 * `escalateAfterBlocks` blocks within `escalationWindowSeconds` lasts `escalatedBlockSeconds`.
 */
export interface ProtectRules {
  readonly maxFailures: number;
  readonly windowSeconds: number;
  readonly blockSeconds: number;
  readonly escalateAfterBlocks: number;
  readonly escalationWindowSeconds: number;
  readonly escalatedBlockSeconds: number;
}

export const DEFAULT_PROTECT_RULES: ProtectRules = {
  maxFailures: 5,
  windowSeconds: 15 * 60,
  blockSeconds: 15 * 60,
  escalateAfterBlocks: 4,
  escalationWindowSeconds: 24 * 3600,
  escalatedBlockSeconds: 24 * 3600,
};

/** Defaults completed by `overrides`; throws RangeError unless every number is a positive integer. */
export function protectRules(overrides: Partial<ProtectRules> = {}): ProtectRules {
  const rules = { ...DEFAULT_PROTECT_RULES, ...overrides };
  for (const [name, value] of Object.entries(rules)) {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`protect rule ${name} must be a positive integer, got ${String(value)}`);
  }
  return rules;
}

export type BlockLevel = 1 | 2;

export type BlockDecision =
  { readonly block: false; readonly remaining: number } | { readonly block: true; readonly level: BlockLevel; readonly until: number };

/** Pure decision after a failure: `failures` in the window (the new one included), `earlierBlocks` in the escalation window. */
export function decideBlock(failures: number, earlierBlocks: number, rules: ProtectRules, now: number): BlockDecision {
  if (failures < rules.maxFailures) return { block: false, remaining: rules.maxFailures - failures };
  const escalated = earlierBlocks + 1 >= rules.escalateAfterBlocks;
  const seconds = escalated ? rules.escalatedBlockSeconds : rules.blockSeconds;
  return { block: true, level: escalated ? 2 : 1, until: now + seconds * 1000 };
}

export type CheckResult = { readonly blocked: false } | { readonly blocked: true; readonly retryAfterSeconds: number };

export type FailureOutcome =
  | { readonly kind: 'counted'; readonly failures: number; readonly remaining: number }
  | { readonly kind: 'blocked'; readonly level: BlockLevel; readonly until: number; readonly retryAfterSeconds: number }
  | { readonly kind: 'already-blocked'; readonly until: number; readonly retryAfterSeconds: number };

export interface DayCount {
  readonly date: string;
  readonly count: number;
}

/** Seconds until `until`, at least 1 while a block is in force (a Retry-After of 0 invites a retry storm). */
export function retryAfterSeconds(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}
