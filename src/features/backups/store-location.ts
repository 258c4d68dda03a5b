/**
 * Which store a backup is taken from or restored into. `dataDir` is the server's data
 * directory (for PostgreSQL optional: it only holds the server's pid file and secrets).
 */
export type StoreLocation =
  | { readonly backend: 'sqlite'; readonly dataDir: string }
  | { readonly backend: 'postgres'; readonly url: string; readonly schema?: string; readonly dataDir?: string };
