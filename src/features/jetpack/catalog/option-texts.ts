/**
 * The option catalogue's human texts: for every option of every built-in module, the label a form
 * shows, a help line saying what it does in Siteward, and the rule a valid value follows in plain
 * words. The one place these words live: module records publish them as `option_texts`
 * (docs/spec/compat.md §9), the admin page shows them, and the wire's own `description` and
 * validation messages (which name the keys) stay the reference's.
 */
import type { CatalogModule, OptionTexts } from '../module-types.js';

const ON_OFF = 'On or off.';
const COUNT = 'A whole number, 1 or more.';
const ROLES = 'One or more of the site’s roles: administrator, editor, author, contributor, subscriber.';
const ANY_TEXT = 'Any text; tags are removed.';
const VERIFY = 'The code the service gave you: the content of its meta tag, or the whole tag (letters, digits, - and _).';

const proofread = (what: string): OptionTexts => ({
  label: what,
  help: `Flags ${what.toLowerCase()} while proofreading.`,
  rule: ON_OFF,
});

export const OPTION_TEXTS: Readonly<Record<string, Readonly<Record<string, OptionTexts>>>> = {
  protect: {
    jetpack_protect_key: {
      label: 'Protection key',
      help: 'Kept for clients that read it; Siteward’s own login protection needs no key, so you can leave this empty.',
      rule: 'Any text (usually empty).',
    },
    jetpack_protect_global_whitelist: {
      label: 'Never block these addresses',
      // The accepted forms belong in the help too: people type ranges and blocks before any refusal.
      help: 'Logins from these addresses are never blocked, however often they fail. One entry a line: an address (203.0.113.7, 2001:db8::1), a range (203.0.113.1 - 203.0.113.50) or a CIDR block (192.168.0.0/24, 2001:db8:1::/48).',
      rule: 'One entry a line: an address (203.0.113.7, 2001:db8::1), a range (203.0.113.1 - 203.0.113.50) or a CIDR block (192.168.0.0/24, 2001:db8:1::/48).',
    },
  },
  stats: {
    admin_bar: {
      label: 'Views chart in the toolbar',
      help: 'Kept for the site’s front end, which draws a 48-hour views chart in its toolbar.',
      rule: ON_OFF,
    },
    roles: { label: 'Who may see statistics', help: 'The roles that may open the statistics reports.', rule: ROLES },
    count_roles: {
      label: 'Count visits of these roles',
      help: 'Page views by logged-in users with these roles are counted too.',
      rule: 'None, or some of the site’s roles.',
    },
    blog_id: { label: 'Site ID shown', help: 'Kept for the site’s front end; Siteward does not use it.', rule: ON_OFF },
    do_not_track: { label: 'Respect “Do Not Track”', help: 'Visitors whose browser asks not to be tracked are not counted.', rule: ON_OFF },
    hide_smile: { label: 'Hide the statistics image', help: 'Hides the small image the statistics code adds to pages.', rule: ON_OFF },
    version: {
      label: 'Statistics settings version',
      help: 'A number the site’s front end uses to upgrade its settings; leave it as it is.',
      rule: COUNT,
    },
  },
  'after-the-deadline': {
    onpublish: { label: 'Proofread on publish', help: 'Checks a post or page when it is first published.', rule: ON_OFF },
    onupdate: { label: 'Proofread on update', help: 'Checks a post or page each time it is updated.', rule: ON_OFF },
    'Bias Language': proofread('Biased language'),
    Cliches: proofread('Clichés'),
    'Complex Expression': proofread('Complex expressions'),
    'Diacritical Marks': proofread('Missing diacritical marks'),
    'Double Negative': proofread('Double negatives'),
    'Hidden Verbs': proofread('Hidden verbs'),
    'Jargon Language': proofread('Jargon'),
    'Passive voice': proofread('Sentences in the passive voice'),
    'Phrases to Avoid': proofread('Phrases to avoid'),
    'Redundant Expression': proofread('Redundant expressions'),
    guess_lang: { label: 'Detect the language', help: 'Proofreads each post in the language it is written in.', rule: ON_OFF },
    ignored_phrases: { label: 'Phrases to ignore', help: 'Proofreading never flags these phrases.', rule: 'Phrases separated by commas.' },
    unignore_phrase: {
      label: 'Stop ignoring a phrase',
      help: 'Removes one phrase from the phrases to ignore.',
      rule: 'One phrase from the list of phrases to ignore.',
    },
  },
  sharedaddy: {
    sharing_services: {
      label: 'Sharing buttons',
      help: 'The buttons shown under posts (visible) and those behind a “More” button (hidden).',
      rule: 'Two lists, visible and hidden, of available sharing services.',
    },
    button_style: { label: 'Button style', help: 'How the sharing buttons look.', rule: 'One of the styles offered.' },
    sharing_label: { label: 'Heading above the buttons', help: 'The text shown before the sharing buttons.', rule: ANY_TEXT },
    show: {
      label: 'Where buttons appear',
      help: 'The kinds of pages that show sharing buttons.',
      rule: 'None, or some of: index (the home page and archives), post, page, attachment, and portfolio pages.',
    },
    'jetpack-twitter-cards-site-tag': {
      label: 'Site’s X (Twitter) account',
      help: 'Named in link previews on X (Twitter) as the site’s account.',
      rule: 'Empty, or a user name of up to 15 letters, digits or _, with or without the @.',
    },
    sharedaddy_disable_resources: {
      label: 'Leave out the buttons’ styles and scripts',
      help: 'For themes that style the buttons themselves.',
      rule: ON_OFF,
    },
    custom: {
      label: 'Add your own sharing service',
      help: 'A button of your own: its name, the address the button opens and the address of its icon.',
      rule: 'A name, a sharing address and an icon address.',
    },
    sharing_delete_service: {
      label: 'Remove a service you added',
      help: 'Removes one of your own sharing services from the buttons.',
      rule: 'The ID of a service you added (e.g. custom-1234567890).',
    },
  },
  subscriptions: {
    stb_enabled: {
      label: 'Offer “follow the site” with comments',
      help: 'A box under the comment form to get new posts by e-mail.',
      rule: ON_OFF,
    },
    stc_enabled: {
      label: 'Offer “follow the comments”',
      help: 'A box under the comment form to get new comments by e-mail.',
      rule: ON_OFF,
    },
  },
  'gravatar-hovercards': {
    gravatar_disable_hovercards: {
      label: 'Profile cards on avatars',
      help: 'Shows a commenter’s profile card when the pointer rests on their avatar.',
      rule: 'Enabled or disabled.',
    },
  },
  'post-by-email': {
    post_by_email_address: {
      label: 'Posting address',
      help: 'Create, replace or delete the secret e-mail address that publishes what it receives.',
      rule: 'Create, regenerate or delete.',
    },
  },
  comments: {
    highlander_comment_form_prompt: { label: 'Comment form greeting', help: 'The heading above the comment form.', rule: ANY_TEXT },
    jetpack_comment_form_color_scheme: {
      label: 'Comment form colours',
      help: 'Matches the comment form to a light or dark theme.',
      rule: 'Light, dark or transparent.',
    },
  },
  minileven: {
    wp_mobile_excerpt: {
      label: 'Excerpts on phones',
      help: 'The mobile theme shows excerpts instead of whole posts on the front page.',
      rule: 'Enabled or disabled.',
    },
    wp_mobile_featured_images: {
      label: 'Featured images on phones',
      help: 'The mobile theme shows each post’s featured image.',
      rule: 'Enabled or disabled.',
    },
    wp_mobile_app_promos: { label: 'Mobile app promotion', help: 'A link to the mobile apps in the mobile theme’s footer.', rule: ON_OFF },
  },
  carousel: {
    carousel_background_color: { label: 'Slideshow background', help: 'The colour behind full-screen photos.', rule: 'Black or white.' },
    carousel_display_exif: {
      label: 'Show photo details',
      help: 'Shows the camera details (Exif) under each photo when it has them.',
      rule: ON_OFF,
    },
  },
  'site-icon': {
    site_icon_id: { label: 'Site icon image', help: 'The media item used as the site icon.', rule: COUNT },
    site_icon_url: { label: 'Site icon address', help: 'The web address of the site icon image.', rule: 'A web address, or empty.' },
  },
  likes: {
    wpl_default: {
      label: 'Like buttons',
      help: 'Show Like buttons on every post, or only on posts where you turn them on.',
      rule: 'On for all posts, or turned on per post.',
    },
    social_notifications_like: { label: 'E-mail me about likes', help: 'Sends you an e-mail when someone likes a post.', rule: ON_OFF },
  },
  'tiled-gallery': {
    tiled_galleries: { label: 'Tiled galleries', help: 'Shows gallery images as a mosaic of tiles.', rule: ON_OFF },
  },
  'infinite-scroll': {
    infinite_scroll: {
      label: 'Load more posts on scroll',
      help: 'Loads the next posts when the reader reaches the end of the page.',
      rule: ON_OFF,
    },
    infinite_scroll_google_analytics: {
      label: 'Count loaded pages as views',
      help: 'Tells Google Analytics about each page of posts loaded this way.',
      rule: ON_OFF,
    },
  },
  monitor: {
    monitor_receive_notifications: {
      label: 'E-mail alerts about downtime',
      help: 'The administrators and addresses chosen on the Monitor screen get an e-mail when the site goes down and when it is back. A webhook (SITEWARD_MONITOR_WEBHOOK) is called whether this is on or not.',
      rule: ON_OFF,
    },
  },
  'related-posts': {
    show_headline: { label: '“Related” heading', help: 'A heading that sets the related posts apart from the post.', rule: ON_OFF },
    show_thumbnails: {
      label: 'Large layout with images',
      help: 'Shows related posts with their images, in a larger layout.',
      rule: ON_OFF,
    },
  },
  sso: {
    jetpack_sso_require_two_step: {
      label: 'Require two-step login at the account service',
      help: 'Only accounts that used two-step authentication at the account service may log in with it.',
      rule: ON_OFF,
    },
    jetpack_sso_match_by_email: {
      label: 'Match accounts by e-mail',
      help: 'Logs a person into the local user with the same e-mail address when their account is not linked yet.',
      rule: ON_OFF,
    },
  },
  markdown: {
    wpcom_publish_comments_with_markdown: {
      label: 'Markdown in comments',
      help: 'Commenters may format their comments with Markdown.',
      rule: ON_OFF,
    },
  },
  'verification-tools': {
    google: {
      label: 'Google Search Console code',
      help: 'Proves to Google that you own the site: Siteward puts the tag on the home page.',
      rule: VERIFY,
    },
    bing: {
      label: 'Bing Webmaster Tools code',
      help: 'Proves to Bing that you own the site: Siteward puts the tag on the home page.',
      rule: VERIFY,
    },
    pinterest: {
      label: 'Pinterest code',
      help: 'Proves to Pinterest that you own the site: Siteward puts the tag on the home page.',
      rule: VERIFY,
    },
  },
  'custom-content-types': {
    jetpack_portfolio: { label: 'Portfolio projects', help: 'Adds a content type for portfolio projects.', rule: ON_OFF },
    jetpack_portfolio_posts_per_page: {
      label: 'Projects per page',
      help: 'How many portfolio projects a page lists at most.',
      rule: COUNT,
    },
    jetpack_testimonial: { label: 'Testimonials', help: 'Adds a content type for testimonials.', rule: ON_OFF },
    jetpack_testimonial_posts_per_page: {
      label: 'Testimonials per page',
      help: 'How many testimonials a page lists at most.',
      rule: COUNT,
    },
  },
};

/**
 * The texts of each option of `mod`, by key (null for a module without options): a built-in
 * module's from the catalogue above, a plugin's from its definition (`texts`), else its
 * `description` as the label, since a plugin may not have written any.
 */
export function optionTextsOf(mod: CatalogModule): Record<string, OptionTexts> | null {
  if (!mod.options) return null;
  const own = mod.builtIn ? OPTION_TEXTS[mod.slug] : undefined;
  const out: Record<string, OptionTexts> = {};
  for (const [key, option] of Object.entries(mod.options)) {
    const texts = own?.[key] ?? option.texts;
    out[key] = texts
      ? { label: texts.label, help: texts.help, rule: texts.rule }
      : { label: option.description || key, help: '', rule: '' };
  }
  return out;
}
