/**
 * Options of the modules whose values are plain stored settings (docs/spec/jetpack-v4-reference.md §6). Each is stored
 * under the reference's storage name; the site's front end and other consumers read them there.
 */
import type { JsonValue } from '../../../../core/json.js';
import { validateVerificationCode, type VerificationServiceKey } from '../../../verification/index.js';
import type { ModuleOptionDefinition } from '../../module-types.js';
import { boolOption, enumOption, posintOption, textOption } from '../option-builders.js';
import { toStatsRoles, toUrl, validateStatsRoles } from '../option-validators.js';

type OptionSet = Record<string, ModuleOptionDefinition>;

const enabledDisabled = { enabled: 'Enabled', disabled: 'Disabled' };

/** minileven stored "1"/"0" and read back as enabled/disabled (docs/spec/jetpack-v4-reference.md §6). */
function mobileToggle(description: string): ModuleOptionDefinition {
  return {
    ...enumOption(description, enabledDisabled, 'disabled'),
    encode: (value: JsonValue) => (value === 'enabled' ? '1' : '0'),
    decode: (stored: JsonValue | undefined) => (stored === '1' || stored === 1 || stored === true ? 'enabled' : 'disabled'),
  };
}

function statsRolesOption(description: string, key: string): ModuleOptionDefinition {
  return {
    description,
    type: 'array',
    default: ['administrator'],
    sanitize_callback: 'Jetpack_Core_Json_Api_Endpoints::sanitize_stats_allowed_roles',
    validate: validateStatsRoles,
    sanitize: toStatsRoles,
    storage: { option: 'stats_options', path: [key] },
  };
}

const stats = (key: string) => ({ option: 'stats_options', path: [key] });
const relatedPosts = (key: string) => ({ option: 'jetpack_relatedposts', path: [key] });
const verification = (key: VerificationServiceKey) => ({ option: 'verification_services_codes', path: [key] });

export const carouselOptions: OptionSet = {
  carousel_background_color: enumOption('Background color.', { black: 'Black', white: 'White' }, 'black'),
  carousel_display_exif: boolOption('Show photo metadata (Exif) in carousel, when available.', 0),
};

export const commentsOptions: OptionSet = {
  highlander_comment_form_prompt: textOption('Greeting Text', 'Leave a Reply', 'sanitize_text_field'),
  jetpack_comment_form_color_scheme: enumOption('Color Scheme', { light: 'Light', dark: 'Dark', transparent: 'Transparent' }, 'light'),
};

export const customContentTypesOptions: OptionSet = {
  jetpack_portfolio: boolOption('Enable or disable Jetpack portfolio post type.', 0),
  jetpack_portfolio_posts_per_page: posintOption('Number of entries to show at most in Portfolio pages.', 10),
  jetpack_testimonial: boolOption('Enable or disable Jetpack testimonial post type.', 0),
  jetpack_testimonial_posts_per_page: posintOption('Number of entries to show at most in Testimonial pages.', 10),
};

export const tiledGalleryOptions: OptionSet = {
  tiled_galleries: boolOption('Display all your gallery pictures in a cool mosaic.', 0),
};

export const gravatarHovercardsOptions: OptionSet = {
  gravatar_disable_hovercards: enumOption("View people's profiles when you mouse over their Gravatars", enabledDisabled, 'enabled'),
};

export const infiniteScrollOptions: OptionSet = {
  infinite_scroll: boolOption('To infinity and beyond', 1),
  infinite_scroll_google_analytics: boolOption('Use Google Analytics with Infinite Scroll', 0),
};

export const likesOptions: OptionSet = {
  wpl_default: enumOption('WordPress.com Likes are', { on: 'On for all posts', off: 'Turned on per post' }, 'on'),
  social_notifications_like: boolOption('Send email notification when someone likes a posts', 1),
};

export const markdownOptions: OptionSet = {
  wpcom_publish_comments_with_markdown: boolOption('Use Markdown for comments.', 0),
};

export const minilevenOptions: OptionSet = {
  wp_mobile_excerpt: mobileToggle('Excerpts'),
  wp_mobile_featured_images: mobileToggle('Featured Images'),
  wp_mobile_app_promos: boolOption('Show a promo for the WordPress mobile apps in the footer of the mobile theme.', 0),
};

/**
 * Historically a remote call to the monitoring service with a local cache. Siteward runs the
 * monitor itself, so the flag is simply stored here: the monitor service reads it to decide
 * whether to e-mail the administrators when the site goes down.
 */
export const monitorOptions: OptionSet = {
  monitor_receive_notifications: boolOption('Receive Monitor Email Notifications.', 0),
};

export const ssoOptions: OptionSet = {
  jetpack_sso_require_two_step: boolOption('Require Two-Step Authentication', 0),
  jetpack_sso_match_by_email: boolOption('Match by Email', 0),
};

export const siteIconOptions: OptionSet = {
  site_icon_id: posintOption('Site Icon ID', 0),
  site_icon_url: textOption('Site Icon URL', '', 'esc_url', undefined, toUrl),
};

export const subscriptionsOptions: OptionSet = {
  stb_enabled: boolOption("Show a <em>'follow blog'</em> option in the comment form", 1),
  stc_enabled: boolOption("Show a <em>'follow comments'</em> option in the comment form", 1),
};

export const relatedPostsOptions: OptionSet = {
  show_headline: boolOption(
    'Show a "Related" header to more clearly separate the related section from posts',
    1,
    relatedPosts('show_headline'),
  ),
  show_thumbnails: boolOption('Use a large and visually striking layout', 0, relatedPosts('show_thumbnails')),
};

/** A verification code, checked by the same rule the verification feature prints tags under. */
function verificationCodeOption(description: string, key: VerificationServiceKey): ModuleOptionDefinition {
  return {
    description,
    type: 'string',
    default: '',
    validate: (value, param) => {
      const result = validateVerificationCode(param, value);
      return result.ok ? true : result.message;
    },
    sanitize: String,
    storage: verification(key),
  };
}

/** Read by the verification feature, which prints the matching meta tags on the home page. */
export const verificationToolsOptions: OptionSet = {
  google: verificationCodeOption('Google Search Console', 'google'),
  bing: verificationCodeOption('Bing Webmaster Center', 'bing'),
  pinterest: verificationCodeOption('Pinterest Site Verification', 'pinterest'),
};

export const statsOptions: OptionSet = {
  admin_bar: boolOption('Put a chart showing 48 hours of views in the admin bar.', 1, stats('admin_bar')),
  roles: statsRolesOption('Select the roles that will be able to view stats reports.', 'roles'),
  count_roles: statsRolesOption('Count the page views of registered users who are logged in.', 'count_roles'),
  blog_id: boolOption('Blog ID.', 0, stats('blog_id')),
  do_not_track: boolOption('Do not track.', 1, stats('do_not_track')),
  hide_smile: boolOption('Hide the stats smiley face image.', 1, stats('hide_smile')),
  version: posintOption('Version.', 9, stats('version')),
};
