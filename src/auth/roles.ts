/**
 * WordPress's five standard roles with their primitive capabilities, as `populate_roles()`
 * builds them up to WordPress 4.7 (docs/spec/compat.md §10).
 */

export const ROLE_NAMES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

const levels = (top: number): string[] => Array.from({ length: top + 1 }, (_, i) => `level_${top - i}`);

const subscriber = ['read', ...levels(0)];
const contributor = ['edit_posts', 'read', 'delete_posts', ...levels(1)];
const author = [
  'upload_files',
  'edit_posts',
  'edit_published_posts',
  'publish_posts',
  'read',
  'delete_posts',
  'delete_published_posts',
  ...levels(2),
];
const editor = [
  'moderate_comments',
  'manage_categories',
  'manage_links',
  'upload_files',
  'unfiltered_html',
  'edit_posts',
  'edit_others_posts',
  'edit_published_posts',
  'publish_posts',
  'edit_pages',
  'read',
  'edit_others_pages',
  'edit_published_pages',
  'publish_pages',
  'delete_pages',
  'delete_others_pages',
  'delete_published_pages',
  'delete_posts',
  'delete_others_posts',
  'delete_published_posts',
  'delete_private_posts',
  'edit_private_posts',
  'read_private_posts',
  'delete_private_pages',
  'edit_private_pages',
  'read_private_pages',
  ...levels(7),
];
const administrator = [
  ...editor.filter((cap) => !cap.startsWith('level_')),
  'switch_themes',
  'edit_themes',
  'activate_plugins',
  'edit_plugins',
  'edit_users',
  'edit_files',
  'manage_options',
  'import',
  'delete_users',
  'create_users',
  'unfiltered_upload',
  'edit_dashboard',
  'update_plugins',
  'delete_plugins',
  'install_plugins',
  'update_themes',
  'install_themes',
  'update_core',
  'list_users',
  'remove_users',
  'add_users',
  'promote_users',
  'edit_theme_options',
  'delete_themes',
  'export',
  ...levels(10),
];

export interface RoleDefinition {
  /** Display name. */
  readonly name: string;
  readonly capabilities: ReadonlySet<string>;
}

export const ROLES: Readonly<Record<RoleName, RoleDefinition>> = {
  administrator: { name: 'Administrator', capabilities: new Set(administrator) },
  editor: { name: 'Editor', capabilities: new Set(editor) },
  author: { name: 'Author', capabilities: new Set(author) },
  contributor: { name: 'Contributor', capabilities: new Set(contributor) },
  subscriber: { name: 'Subscriber', capabilities: new Set(subscriber) },
};

export function isRoleName(name: string): name is RoleName {
  return (ROLE_NAMES as readonly string[]).includes(name);
}

const unionCache = new Map<string, ReadonlySet<string>>();

/** The union of the capabilities of the given roles (unknown role names grant nothing). */
export function capabilitiesOfRoles(roles: readonly string[]): ReadonlySet<string> {
  const key = roles.join('\0');
  let caps = unionCache.get(key);
  if (!caps) {
    const union = new Set<string>();
    for (const role of roles) if (isRoleName(role)) for (const cap of ROLES[role].capabilities) union.add(cap);
    caps = union;
    // Few distinct role combinations exist; the cap only guards against unbounded input.
    if (unionCache.size < 256) unionCache.set(key, caps);
  }
  return caps;
}
