import { describe, expect, it } from 'vitest';
import type { AbilityCaller, AbilitySchema } from '../../plugins/ability-types.js';
import type { Principal } from '../../rest/types.js';
import { AbilityRegistry } from './registry.js';

const admin: Principal = { id: 1, login: 'admin', email: '', displayName: '', roles: [], can: () => true };
const caller: AbilityCaller = { user: admin, credential: null, via: 'rest' };
const NUMBERS: AbilitySchema = { type: 'array', items: { type: 'integer' } };
const STRINGS: AbilitySchema = { type: 'array', items: { type: 'string' } };

function registryAnswering(results: Record<string, { schema: AbilitySchema; value: () => unknown }>): AbilityRegistry {
  const registry = new AbilityRegistry();
  registry.registerCategory('tests', { label: 'Tests', description: 'Test abilities.' });
  for (const [name, { schema, value }] of Object.entries(results))
    registry.register(name, {
      label: name,
      description: name,
      category: 'tests',
      output_schema: schema,
      permission: () => true,
      execute: async () => value(),
    });
  return registry;
}

describe('the output check (speed: a frozen result is checked once per ability)', () => {
  it('answers a frozen valid result again, and still refuses an invalid one, frozen or not, on every run', async () => {
    const valid = Object.freeze([1, 2]);
    const invalidFrozen = Object.freeze(['x']);
    const registry = registryAnswering({
      't/valid': { schema: NUMBERS, value: () => valid },
      't/frozen-invalid': { schema: NUMBERS, value: () => invalidFrozen },
      't/open-invalid': { schema: NUMBERS, value: () => ['y'] },
    });
    const run = (name: string) => registry.run(registry.get(name)!, null, caller);
    for (let i = 0; i < 2; i++) {
      expect(await run('t/valid')).toEqual({ ok: true, value: valid });
      for (const name of ['t/frozen-invalid', 't/open-invalid']) {
        const outcome = await run(name);
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error.code).toBe('ability_invalid_output');
      }
    }
  });

  it('checks a frozen value again when another ability, with another schema, answers it', async () => {
    const shared = Object.freeze([1, 2]);
    const registry = registryAnswering({
      't/numbers': { schema: NUMBERS, value: () => shared },
      't/strings': { schema: STRINGS, value: () => shared },
    });
    expect((await registry.run(registry.get('t/numbers')!, null, caller)).ok).toBe(true);
    const outcome = await registry.run(registry.get('t/strings')!, null, caller);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('ability_invalid_output');
  });
});
