import { describe, expect, it } from 'vitest';
import { StatementNames } from './pg-prepared.js';

describe('prepared statement names', () => {
  it('gives one name per distinct text, the same name each time', () => {
    const names = new StatementNames(10);
    const first = names.nameOf('select "v" from "state_version" where "id" = $1');
    expect(first).toBeDefined();
    expect(names.nameOf('select "v" from "state_version" where "id" = $1')).toBe(first);
    expect(names.nameOf('select "value" from "options" where "name" = $1')).not.toBe(first);
  });

  it('names no more than its bound of texts; later ones run unnamed', () => {
    const names = new StatementNames(2);
    expect(names.nameOf('a = $1')).toBeDefined();
    expect(names.nameOf('b = $1')).toBeDefined();
    expect(names.nameOf('c = $1')).toBeUndefined();
    expect(names.nameOf('a = $1')).toBeDefined();
  });

  it('never prepares a text whose result columns follow the table (select *, returning *)', () => {
    const names = new StatementNames(10);
    expect(names.nameOf('select * from "sessions" where "token_hash" = $1')).toBeUndefined();
    expect(names.nameOf('insert into "leases" ("name") values ($1) returning *')).toBeUndefined();
  });
});
