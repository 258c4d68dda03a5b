/**
 * Shapes of what the page gets: Initial_State (reference §11), the jetpack/v4 answers and Siteward's
 * own siteward/v1 answers. Not copies: the type-only wire module the server builds its answers with.
 */
export type * from '../wire/jetpack-v4';
export type * from '../wire/siteward-v1';
