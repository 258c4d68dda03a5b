/** Built-in modules `manage` … `related-posts` (docs/spec/jetpack-v4-reference.md §5.2, §6; docs/spec/compat.md §9). */
import type { ModuleDefinition } from '../module-types.js';
import { markdownOptions, minilevenOptions, monitorOptions, relatedPostsOptions } from './options/basic-options.js';
import { postByEmailOptions } from './options/post-by-email-options.js';
import { protectOptions } from './options/protect-options.js';

export const modulesMToR: ModuleDefinition[] = [
  {
    slug: 'manage', name: 'Manage', description: 'Manage all of your sites from a centralized dashboard.',
    jumpstart_desc:
      'Lets you update plugins and turn on automatic updates remotely, from the dashboard of the account service the site is connected to.',
    sort: 1, recommendation_order: 3, introduced: '3.4', requires_connection: true, auto_activate: 'No',
    module_tags: ['Centralized Management', 'Recommended'], feature: ['General', 'Jumpstart'],
    additional_search_queries: 'manage, management, remote, updates, plugins, dashboard, centralized',
    long_description: '<p>Lets you update plugins and manage the site from the central account service\'s dashboard.</p>',
  },
  {
    slug: 'markdown', name: 'Markdown', description: 'Write posts or pages in plain-text Markdown syntax.',
    sort: 31, recommendation_order: 20, introduced: '2.8', requires_connection: false, auto_activate: 'No',
    module_tags: ['Writing'], feature: ['Writing'],
    additional_search_queries: 'md, markdown',
    long_description: '<p>Lets you write posts, pages and, optionally, comments in Markdown.</p>',
    options: markdownOptions,
  },
  {
    slug: 'minileven', name: 'Mobile Theme', description: 'Optimize your site for smartphones and tablets.',
    sort: 21, recommendation_order: 11, introduced: '1.8', requires_connection: false, auto_activate: 'No',
    module_tags: ['Appearance', 'Mobile', 'Recommended'], feature: ['Appearance'],
    additional_search_queries: 'mobile, theme, minileven, smartphone, tablet, responsive',
    long_description: '<p>Serves a lightweight theme to phones, with optional excerpts, featured images and app promotions.</p>',
    options: minilevenOptions,
  },
  {
    slug: 'monitor', name: 'Monitor', description: 'Receive immediate notifications if your site goes down, 24/7.',
    sort: 28, recommendation_order: 10, introduced: '2.6', requires_connection: false, auto_activate: 'No',
    module_tags: ['Recommended'], feature: ['Security'],
    additional_search_queries: 'monitor, uptime, downtime, monitoring',
    long_description: '<p>Siteward checks that the site answers (every minute by default; no answer within 10 seconds or a 5xx error, confirmed by a second check, is downtime), records each downtime, including the time Siteward itself was not running, and with notifications on e-mails the administrators and calls a webhook when the site goes down and comes back.</p>',
    runtime: 'siteward',
    options: monitorOptions,
  },
  {
    slug: 'notes', name: 'Notifications', description: 'Receive instant notifications of site comments and likes.',
    sort: 13, recommendation_order: 20, introduced: '1.9', requires_connection: true, auto_activate: 'Yes',
    module_tags: ['Other'], feature: ['General'],
    additional_search_queries: 'notification, notifications, toolbar, adminbar, push, comments',
    long_description: '<p>Shows new comments and likes in the toolbar and in the mobile apps.</p>',
  },
  {
    slug: 'omnisearch', name: 'Omnisearch', description: 'Search your entire database from a single field in your dashboard.',
    sort: 16, recommendation_order: 20, introduced: '2.3', requires_connection: false, auto_activate: 'Yes',
    module_tags: ['Developers'], feature: ['General'],
    additional_search_queries: 'search, omni, omnisearch, find, posts, pages, comments, media',
    long_description: '<p>Searches posts, pages, comments, media and plugins at once from one field in the dashboard.</p>',
  },
  {
    slug: 'photon', name: 'Photon', description: 'Speed up images and photos.',
    jumpstart_desc:
      'Serves your images from an image CDN, resized on the fly, so pages load faster and your server does less work.',
    sort: 25, recommendation_order: 1, introduced: '2.0', requires_connection: true, auto_activate: 'No',
    module_tags: ['Photos and Videos', 'Appearance', 'Recommended'], feature: ['Recommended', 'Jumpstart', 'Appearance'],
    additional_search_queries: 'photon, image, cdn, performance, speed, resize, images',
    long_description: '<p>Serves the site\'s images from an image CDN, resized on the fly.</p>',
  },
  {
    slug: 'post-by-email', name: 'Post by Email', description: 'Publish posts by sending an email.',
    sort: 14, recommendation_order: 20, introduced: '2.0', requires_connection: true, auto_activate: 'Yes',
    module_tags: ['Writing'], feature: ['Writing'],
    additional_search_queries: 'post by email, email, publish, mail, posting',
    long_description: '<p>Not available on Siteward: publishing by e-mail needs a mail service that Siteward does not run, so its address cannot be created.</p>',
    options: postByEmailOptions,
  },
  {
    slug: 'protect', name: 'Protect', description: 'Prevent and block malicious login attempts.',
    sort: 1, recommendation_order: 4, introduced: '3.4', requires_connection: false, auto_activate: 'Yes',
    module_tags: ['Recommended'], feature: ['Security'],
    additional_search_queries: 'security, secure, protection, botnet, brute force, protect, login',
    long_description: '<p>Siteward counts failed password checks per address (an IPv6 address by its /64) on its login page, HTTP Basic with application passwords and the setup page. By default 5 failures within 15 minutes block the address for 15 minutes, and its 4th block within 24 hours lasts 24 hours; a blocked address is refused before its password is checked. Siteward counts the attempts it refuses. Addresses on the allow list are never blocked.</p>',
    runtime: 'siteward',
    options: protectOptions,
  },
  {
    slug: 'publicize', name: 'Publicize', description: 'Automated social marketing.',
    sort: 10, recommendation_order: 7, introduced: '2.0', requires_connection: true, auto_activate: 'Yes',
    module_tags: ['Social', 'Recommended'], feature: ['Engagement'],
    additional_search_queries: 'facebook, twitter, google+, googleplus, google, path, tumblr, linkedin, social, tweet, connections, sharing',
    long_description: '<p>Shares new posts on your connected social networks automatically.</p>',
  },
  {
    slug: 'related-posts', name: 'Related Posts', description: 'Increase page views by showing related content to your visitors.',
    jumpstart_desc: 'Keep visitors engaged on your blog by highlighting relevant and new content at the bottom of each published post.',
    sort: 29, recommendation_order: 9, introduced: '2.9', requires_connection: true, auto_activate: 'No',
    module_tags: ['Recommended'], feature: ['Engagement', 'Jumpstart'],
    additional_search_queries: 'related, related posts, similar, recommendations',
    long_description: '<p>Shows three related posts, with an optional headline and thumbnails, below each post.</p>',
    options: relatedPostsOptions,
  },
];
