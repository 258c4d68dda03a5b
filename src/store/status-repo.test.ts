import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores } from './testing/test-stores.js';
import type { Store } from './types.js';

describe.each(testStores())('status rows on $name', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await backend.open();
  });
  afterAll(() => backend.cleanup());

  it('lists the keys of a prefix exactly, without treating % or _ as wildcards or ignoring case', async () => {
    for (const key of ['conn:a', 'conn:b', 'conn_x', 'CONN:c', 'connx', 'conn%:d']) await store.status.set(key, key, 1);
    expect(await store.status.keys('conn:')).toEqual(['conn:a', 'conn:b']);
    expect(await store.status.keys('conn%')).toEqual(['conn%:d']);
    expect(await store.status.keys('nothing:')).toEqual([]);
    await store.status.delete('conn:a');
    expect(await store.status.keys('conn:')).toEqual(['conn:b']);
  });
});
