/**
 * The permalink modes of WordPress that decide where the REST root is: `pretty`
 * (`/<prefix>/`), `index` (`/index.php/<prefix>/`) and `plain` (`/?rest_route=/`). The
 * configuration reads them and the REST URL builder uses them, so they live below both.
 */
export const PERMALINK_MODES = ['pretty', 'index', 'plain'] as const;

export type Permalinks = (typeof PERMALINK_MODES)[number];
