import { createRequire } from 'node:module';

/** Siteward's own version, from its package.json (the same path from src/ and dist/). */
export const SITEWARD_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
