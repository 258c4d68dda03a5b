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
    expect(fresh).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    expect([passwordWork.running, passwordWork.waiting]).toEqual([0, 0]);
  });

  it('still verifies a hash made at the earlier cost (19 MiB, 2 passes), which carries its own parameters', async () => {
    const earlier = await hash('correct horse battery staple', { memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(earlier).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(earlier, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(earlier, 'correct horse battery stable')).toBe(false);
  });
});
