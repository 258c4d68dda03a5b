import { describe, expect, it } from 'vitest';
import { validateByType } from './option-validators.js';
import { ModuleCatalog } from './module-catalog.js';

const catalog = new ModuleCatalog();

function validate(slug: string, key: string, value: unknown) {
  const def = catalog.get(slug)!.options![key]!;
  return (def.validate ?? validateByType(def.type))(value, key);
}

/** Reference §3.11's messages, word for word, on the options that use them (§6). */
const BAD: Array<[string, string, unknown, string]> = [
  ['carousel', 'carousel_background_color', 'red', 'carousel_background_color must be one of black, white'],
  ['comments', 'jetpack_comment_form_color_scheme', 'blue', 'jetpack_comment_form_color_scheme must be one of light, dark, transparent'],
  ['likes', 'wpl_default', true, 'wpl_default must be one of on, off'],
  ['gravatar-hovercards', 'gravatar_disable_hovercards', 'off', 'gravatar_disable_hovercards must be one of enabled, disabled'],
  ['minileven', 'wp_mobile_excerpt', '1', 'wp_mobile_excerpt must be one of enabled, disabled'],
  ['sharedaddy', 'button_style', 'big', 'button_style must be one of icon-text, icon, text, official'],
  ['post-by-email', 'post_by_email_address', 'me@example.org', 'post_by_email_address must be one of create, regenerate, delete'],
  ['carousel', 'carousel_display_exif', 'yes', 'carousel_display_exif must be true, false, 0 or 1.'],
  ['stats', 'admin_bar', 2, 'admin_bar must be true, false, 0 or 1.'],
  ['related-posts', 'show_headline', null, 'show_headline must be true, false, 0 or 1.'],
  ['after-the-deadline', 'Passive voice', [], 'Passive voice must be true, false, 0 or 1.'],
  ['custom-content-types', 'jetpack_portfolio_posts_per_page', 0, 'jetpack_portfolio_posts_per_page must be a positive integer.'],
  ['custom-content-types', 'jetpack_testimonial_posts_per_page', '-3', 'jetpack_testimonial_posts_per_page must be a positive integer.'],
  ['stats', 'version', 'nine', 'version must be a positive integer.'],
  ['site-icon', 'site_icon_id', 1.5, 'site_icon_id must be a positive integer.'],
  ['verification-tools', 'google', 'a b', 'google must be an alphanumeric string.'],
  ['verification-tools', 'pinterest', 12, 'pinterest must be an alphanumeric string.'],
  ['protect', 'jetpack_protect_key', 'key!', 'jetpack_protect_key must be an alphanumeric string.'],
  ['comments', 'highlander_comment_form_prompt', 5, 'highlander_comment_form_prompt must be a string.'],
  ['sharedaddy', 'sharing_label', ['x'], 'sharing_label must be a string.'],
  ['after-the-deadline', 'ignored_phrases', false, 'ignored_phrases must be a string.'],
  ['sharedaddy', 'jetpack-twitter-cards-site-tag', 'not a name', 'jetpack-twitter-cards-site-tag must be a Twitter username.'],
  ['sharedaddy', 'jetpack-twitter-cards-site-tag', '@abcdefghijklmnop', 'jetpack-twitter-cards-site-tag must be a Twitter username.'],
  ['stats', 'roles', ['administrator', 'owner'], 'roles must be administrator, editor, author, contributor, subscriber.'],
  ['stats', 'count_roles', 'editor', 'count_roles must be administrator, editor, author, contributor, subscriber.'],
  ['sharedaddy', 'show', ['post', 'feed'], 'show must be index, post, page, attachment, jetpack-portfolio.'],
  ['sharedaddy', 'sharing_services', { visible: ['twitter'] }, 'sharing_services must be an array with visible and hidden items.'],
  [
    'sharedaddy',
    'sharing_services',
    { visible: ['myspace'], hidden: [] },
    'sharing_services must be an array with visible and hidden items.',
  ],
  [
    'sharedaddy',
    'custom',
    { sharing_name: 'X', sharing_url: 'http://x.example' },
    'custom must be an array with sharing name, url and icon.',
  ],
  ['sharedaddy', 'sharing_delete_service', 'twitter', 'sharing_delete_service must be the id of a custom sharing service.'],
  [
    'protect',
    'jetpack_protect_global_whitelist',
    '1.2.3.4, 300.1.1.1',
    'jetpack_protect_global_whitelist must be a list of IP addresses, IP ranges (low - high) or CIDR blocks (192.168.0.0/24). One of your IP addresses was not valid.',
  ],
];

const GOOD: Array<[string, string, unknown]> = [
  ['carousel', 'carousel_background_color', 'white'],
  ['carousel', 'carousel_display_exif', true],
  ['carousel', 'carousel_display_exif', 0],
  ['carousel', 'carousel_display_exif', '1'],
  ['carousel', 'carousel_display_exif', 'false'],
  ['custom-content-types', 'jetpack_portfolio_posts_per_page', '12'],
  ['verification-tools', 'google', 'aBc-12_x'],
  ['verification-tools', 'bing', ''],
  ['protect', 'jetpack_protect_key', 'create'],
  ['sharedaddy', 'jetpack-twitter-cards-site-tag', '@siteward'],
  ['sharedaddy', 'jetpack-twitter-cards-site-tag', ''],
  ['stats', 'roles', []],
  ['stats', 'roles', ['editor', 'author']],
  ['sharedaddy', 'show', ['index', 'jetpack-portfolio']],
  ['sharedaddy', 'sharing_services', { visible: [], hidden: [] }],
  ['sharedaddy', 'sharing_services', { visible: ['twitter', 'custom-123'], hidden: ['email'] }],
  ['sharedaddy', 'custom', { sharing_name: 'X', sharing_url: 'http://x.example', sharing_icon: 'http://x.example/i.png' }],
  ['sharedaddy', 'sharing_delete_service', 'custom-1470000000'],
  ['post-by-email', 'post_by_email_address', 'regenerate'],
  ['protect', 'jetpack_protect_global_whitelist', '192.168.1.1, 10.0.0.1 - 10.0.0.255\n::1'],
  ['protect', 'jetpack_protect_global_whitelist', ''],
];

describe('module option validation', () => {
  it.each(BAD)('%s.%s rejects %j', (slug, key, value, message) => {
    expect(validate(slug, key, value)).toBe(message);
  });

  it.each(GOOD)('%s.%s accepts %j', (slug, key, value) => {
    expect(validate(slug, key, value)).toBe(true);
  });

  it('gives every option of every module a validator that answers a message for a wrong type', () => {
    for (const mod of catalog.all()) {
      for (const key of Object.keys(mod.options ?? {})) {
        expect(validate(mod.slug, key, { unexpected: Symbol.iterator.toString() }), `${mod.slug}.${key}`).toMatch(
          new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')} must be `),
        );
      }
    }
  });
});
