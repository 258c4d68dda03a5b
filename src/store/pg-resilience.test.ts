import { describe, expect, it } from 'vitest';
import { poolTimeouts } from './pg-resilience.js';

describe('PostgreSQL pool timeouts', () => {
  it('bounds the wait for a pooled connection by the statement timeout when that is the shorter', () => {
    expect(poolTimeouts({ connectTimeoutMs: 20_000, statementTimeoutMs: 1000 })).toMatchObject({
      connectionTimeoutMillis: 1000,
      statement_timeout: 1000,
      query_timeout: 1500,
    });
    expect(poolTimeouts({ connectTimeoutMs: 2000, statementTimeoutMs: 5000 })).toMatchObject({
      connectionTimeoutMillis: 2000,
      statement_timeout: 5000,
      query_timeout: 5500,
    });
  });
});
