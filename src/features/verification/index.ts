/**
 * Site verification (the `verification-tools` module): the services' `<meta>` tags in the home
 * page's `<head>` while the module is active (jetpack-v4-reference.md §6).
 */
import { escapeHtml } from '../../core/html.js';
import type { Feature } from '../contract.js';

const VERIFICATION_META: Record<string, string> = {
  google: 'google-site-verification',
  bing: 'msvalidate.01',
  pinterest: 'p:domain_verify',
};

export const verificationFeature: Feature = {
  name: 'verification',
  register(ctx) {
    const options = ctx.store.options;
    ctx.addHeadTags(async () => {
      const active = await options.get('active_modules');
      const activeList = Array.isArray(active) ? active : null;
      if (activeList && !activeList.includes('verification-tools')) return [];
      const codes = await options.get('verification_services_codes');
      if (!codes || typeof codes !== 'object' || Array.isArray(codes)) return [];
      const tags: string[] = [];
      for (const [service, name] of Object.entries(VERIFICATION_META)) {
        const code = (codes as Record<string, unknown>)[service];
        if (typeof code === 'string' && code !== '') tags.push(`<meta name="${name}" content="${escapeHtml(code)}" />`);
      }
      return tags;
    });
  },
};
