/**
 * The admin page's rendered text per user, reused while nothing it shows has changed (issue 26:
 * rendering Initial_State's 50 KB per request cost ~20× a static answer). An entry is valid for one
 * key: the options version (every option write: modules, settings, notices, stats roles, links to
 * accounts), the credentials version (roles, passwords, deletions), the nonce tick (the module
 * list's nonces), the user's own fields, the REST root the request sees, and the built bundle.
 * Bounded in bytes held (lru-cache `maxSize`), so many users cannot grow it without limit.
 */
import { LRUCache } from 'lru-cache';
import type { AdminPageTemplate } from './admin-page-html.js';
import type { AdminBundle } from './admin-bundle.js';

/** Room for about 60 users' pages (~67 KB of UTF-8 each). */
export const ADMIN_PAGE_CACHE_MAX_BYTES = 4 * 1024 * 1024;

interface Entry {
  readonly key: string;
  readonly bundle: AdminBundle | null;
  readonly template: AdminPageTemplate;
}

export interface AdminPageCache {
  /** The user's template for `key`, rendered by `render` when absent or stale. */
  get(userId: number, key: string, bundle: AdminBundle | null, render: () => Promise<AdminPageTemplate>): Promise<AdminPageTemplate>;
  /** Bytes held by all entries' pages and keys (what `maxSize` bounds). */
  readonly calculatedSize: number;
}

export function createAdminPageCache(maxBytes: number = ADMIN_PAGE_CACHE_MAX_BYTES): AdminPageCache {
  const entries = new LRUCache<number, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.template.bytes + entry.key.length),
  });
  return {
    async get(userId, key, bundle, render) {
      const hit = entries.get(userId);
      if (hit !== undefined && hit.key === key && hit.bundle === bundle) return hit.template;
      const template = await render();
      // Keyed by what was read before rendering: a concurrent write makes the next request miss, never shows stale text.
      entries.set(userId, { key, bundle, template });
      return template;
    },
    get calculatedSize() {
      return entries.calculatedSize;
    },
  };
}
