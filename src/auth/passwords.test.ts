import { hash } from '@node-rs/argon2';
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
    expect(fresh).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect([passwordWork.running, passwordWork.waiting]).toEqual([0, 0]);
  });

  it.each([
    [19456, 2],
    [12288, 3],
  ])('still verifies a hash made at an earlier cost (m=%i, t=%i), which carries its own parameters', async (memoryCost, timeCost) => {
    const earlier = await hash('correct horse battery staple', { memoryCost, timeCost, parallelism: 1 });
    expect(earlier).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${memoryCost},t=${timeCost},p=1\\$`));
    expect(await verifyPassword(earlier, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(earlier, 'correct horse battery stable')).toBe(false);
  });
});
