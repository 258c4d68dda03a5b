/**
 * Which store a backup is taken from or restored into. `dataDir` is the server's data
 * directory (for PostgreSQL optional: it only holds the server's pid file and secrets).
 */
export type StoreLocation =
  | { readonly backend: 'sqlite'; readonly dataDir: string }
  | { readonly backend: 'postgres'; readonly url: string; readonly schema?: string; readonly dataDir?: string };

/** The store a configuration opens (the URL's own schema on PostgreSQL, as `openConfiguredStore` uses it). */
export function configuredLocation(config: { readonly dataDir: string; readonly databaseUrl: string | null }): StoreLocation {
  return config.databaseUrl === null
    ? { backend: 'sqlite', dataDir: config.dataDir }
    : { backend: 'postgres', url: config.databaseUrl, dataDir: config.dataDir };
}
