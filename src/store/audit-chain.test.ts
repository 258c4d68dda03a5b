import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainHash } from './audit-chain.js';

describe('the audit chain', () => {
  it('writes one canonical JSON text per value: keys sorted at every level, undefined members left out, arrays kept in order', () => {
    const value = {
      b: [3, 'x', true, null, { z: 1, a: [undefined, 2] }],
      a: { '10': 'ten', '9': 'nine', é: 'e', list: ['c', 'a'] },
      gone: undefined,
      n: -0.5,
    };
    expect(canonicalJson(value)).toBe(
      '{"a":{"10":"ten","9":"nine","list":["c","a"],"é":"e"},"b":[3,"x",true,null,{"a":[null,2],"z":1}],"n":-0.5}',
    );
    expect(canonicalJson(['a', 1, false])).toBe('["a",1,false]');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('hashes the previous hash, the id as 8 bytes and the data, also for a previous hash that is not hex', () => {
    const expected = (previous: string, id: number, data: string) => {
      const idBytes = Buffer.alloc(8);
      idBytes.writeBigInt64BE(BigInt(id));
      return createHash('sha256').update(Buffer.from(previous, 'hex')).update(idBytes).update(data, 'utf8').digest('hex');
    };
    for (const [previous, id, data] of [
      ['0'.repeat(64), 1, '{"a":"é ✓"}'],
      ['ab'.repeat(32), 2 ** 40, ''],
      ['not hex at all', 7, '{}'],
      ['abc', 8, '{}'],
    ] as const)
      expect(chainHash(previous, id, data)).toBe(expected(previous, id, data));
  });
});
