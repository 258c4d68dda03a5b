import { describe, expect, it } from 'vitest';
import { hashPassword, passwordWork, verifyPassword } from './passwords.js';

describe('password hashing', () => {
  it('runs one argon2 hash or verification at a time and queues the others', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const checks = [
      verifyPassword(stored, 'correct horse battery staple'),
      verifyPassword(stored, 'wrong'),
      hashPassword('another passphrase entirely'),
    ];
    expect([passwordWork.running, passwordWork.waiting]).toEqual([1, 2]);
    const [right, wrong, fresh] = await Promise.all(checks);
    expect([right, wrong]).toEqual([true, false]);
    expect(fresh).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect([passwordWork.running, passwordWork.waiting]).toEqual([0, 0]);
  });
});
