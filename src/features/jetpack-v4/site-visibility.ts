/** Whether the site is public: one stored flag, read by the plugin (default modules) and the connection (`isPublic`). */
import { phpTruthy } from '../../core/php.js';
import type { OptionsRepo } from '../../store/types.js';

/** The site option holding it (Jetpack's `blog_public` stand-in); absent means public. */
export const SITE_PUBLIC_OPTION = 'public';

/** Whether the site is public (option `public`, true when never set). */
export async function isSitePublic(options: OptionsRepo): Promise<boolean> {
  const value = await options.get(SITE_PUBLIC_OPTION);
  return value === undefined ? true : phpTruthy(value);
}
