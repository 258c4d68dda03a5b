import { describe, expect, it } from 'vitest';
import { andThen, attempt } from './step.js';

describe('andThen', () => {
  it('runs the next step at once, without a promise, when the value is not one', () => {
    const out = andThen(2, (n) => n * 3);
    expect(out).toBe(6);
  });

  it('waits for a promise and passes on what it resolves to', async () => {
    const out = andThen(Promise.resolve(2), (n) => n * 3);
    expect(out).toBeInstanceOf(Promise);
    await expect(out).resolves.toBe(6);
  });
});

describe('attempt', () => {
  it('turns a synchronous throw into the fail answer, without a promise', () => {
    const out = attempt(
      (): number => {
        throw new Error('boom');
      },
      (n) => `ok ${n}`,
      (error) => `failed: ${(error as Error).message}`,
    );
    expect(out).toBe('failed: boom');
  });

  it('turns a rejection into the fail answer', async () => {
    const out = attempt(
      () => Promise.reject(new Error('late')),
      (n: number) => `ok ${n}`,
      (error) => `failed: ${(error as Error).message}`,
    );
    await expect(out).resolves.toBe('failed: late');
  });

  it('passes a value through next', () => {
    expect(
      attempt(
        () => 1,
        (n) => n + 1,
        () => 0,
      ),
    ).toBe(2);
  });
});
