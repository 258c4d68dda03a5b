// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { fromDraft, readBack, sameDraft, toDraft } from './option-fields';
import type { ModuleOption } from './types';

const option = (
  type: ModuleOption['type'],
  current_value: ModuleOption['current_value'],
  extra: Partial<ModuleOption> = {},
): ModuleOption => ({
  description: 'An option',
  type,
  default: null,
  current_value,
  ...extra,
});

describe('a module option as a form field', () => {
  it('reads a boolean option from any truthy spelling the API uses', () => {
    for (const value of [true, 1, '1', 'true']) expect(toDraft(option('boolean', value))).toEqual({ kind: 'boolean', value: true });
    for (const value of [false, 0, '0', '', null]) expect(toDraft(option('boolean', value))).toEqual({ kind: 'boolean', value: false });
  });

  it('picks the field from the shape of the value: tokens, token groups, text group, JSON', () => {
    expect(toDraft(option('array', ['a', 'b']))).toEqual({ kind: 'tokens', value: ['a', 'b'] });
    expect(toDraft(option('object', { visible: ['x'], hidden: [] }))).toEqual({
      kind: 'token-groups',
      value: { visible: ['x'], hidden: [] },
    });
    expect(toDraft(option('object', { sharing_name: 'N', sharing_url: 'U' }))).toEqual({
      kind: 'text-group',
      value: { sharing_name: 'N', sharing_url: 'U' },
    });
    expect(toDraft(option('object', { a: 1 }))).toEqual({ kind: 'json', value: JSON.stringify({ a: 1 }, null, 1) });
  });

  it('falls back to the default when an array option has no value yet', () => {
    expect(toDraft(option('array', null, { default: ['post'] }))).toEqual({ kind: 'tokens', value: ['post'] });
  });

  it("shows Protect's allow list one entry a line, and reads it back as the API does", () => {
    const allow = option('string', { local: ['10.0.0.1', '10.0.0.2'] });
    expect(toDraft(allow)).toEqual({ kind: 'lines', value: '10.0.0.1\n10.0.0.2' });
    expect(readBack(allow, ' 10.0.0.3 \n\n10.0.0.4')).toEqual({ local: ['10.0.0.3', '10.0.0.4'] });
    expect(readBack(option('string', 'x'), 'y')).toBe('y');
  });

  it('shows an empty text box for an unset or false string option', () => {
    for (const value of [null, false]) expect(toDraft(option('string', value))).toEqual({ kind: 'text', value: '' });
    expect(toDraft(option('integer', 5))).toEqual({ kind: 'text', value: '5' });
  });

  it('sends numbers for a numeric option, and leaves what is not a number for the API to refuse', () => {
    expect(fromDraft(option('integer', 0), { kind: 'text', value: '42' })).toBe(42);
    expect(fromDraft(option('number', 0), { kind: 'text', value: 'abc' })).toBe('abc');
    expect(fromDraft(option('integer', 0), { kind: 'text', value: ' ' })).toBe(' ');
    expect(fromDraft(option('string', ''), { kind: 'text', value: '42' })).toBe('42');
  });

  it('sends copies of lists, so the draft is never shared with the request', () => {
    const tokens = ['a'];
    const sent = fromDraft(option('array', []), { kind: 'tokens', value: tokens });
    expect(sent).toEqual(['a']);
    expect(sent).not.toBe(tokens);
    expect(fromDraft(option('object', {}), { kind: 'token-groups', value: { visible: ['x'] } })).toEqual({ visible: ['x'] });
  });

  it('refuses JSON that does not parse with a message for the field', () => {
    expect(fromDraft(option('object', {}), { kind: 'json', value: '{"a": 1}' })).toEqual({ a: 1 });
    const error = fromDraft(option('object', {}), { kind: 'json', value: '{a' });
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('This must be valid JSON.');
  });

  it('compares drafts by value', () => {
    expect(sameDraft({ kind: 'tokens', value: ['a'] }, { kind: 'tokens', value: ['a'] })).toBe(true);
    expect(sameDraft({ kind: 'tokens', value: ['a'] }, { kind: 'tokens', value: ['b'] })).toBe(false);
  });
});
