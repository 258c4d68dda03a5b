import { describe, expect, it } from 'vitest';
import { anonymousPrincipal, makePrincipal } from './capabilities.js';
import { ROLE_NAMES, ROLES, capabilitiesOfRoles } from './roles.js';

const user = { id: 3, login: 'u', email: 'u@example.com', displayName: 'U' };
const as = (role: string, devMode = false) => makePrincipal(user, [role], { devMode });

describe('roles', () => {
  it('are the five standard WordPress roles', () => {
    expect(ROLE_NAMES).toEqual(['administrator', 'editor', 'author', 'contributor', 'subscriber']);
  });

  it.each([
    [
      'administrator',
      [
        'manage_options',
        'activate_plugins',
        'list_users',
        'edit_posts',
        'read',
        'install_plugins',
        'edit_users',
        'create_users',
        'delete_users',
        'promote_users',
        'update_core',
        'export',
        'edit_theme_options',
        'unfiltered_upload',
        'level_10',
      ],
    ],
    ['editor', ['edit_posts', 'edit_others_posts', 'publish_posts', 'moderate_comments', 'read', 'edit_pages', 'level_7']],
    ['author', ['edit_posts', 'publish_posts', 'upload_files', 'read', 'delete_posts', 'level_2']],
    ['contributor', ['edit_posts', 'read', 'delete_posts', 'level_1']],
    ['subscriber', ['read', 'level_0']],
  ])('%s has its capabilities', (role, caps) => {
    for (const cap of caps) expect(as(role).can(cap), cap).toBe(true);
  });

  it.each([
    ['editor', ['manage_options', 'activate_plugins', 'list_users', 'level_8']],
    ['author', ['edit_others_posts', 'moderate_comments', 'manage_options']],
    ['contributor', ['publish_posts', 'upload_files']],
    ['subscriber', ['edit_posts']],
  ])('%s lacks the capabilities of higher roles', (role, caps) => {
    for (const cap of caps) expect(as(role).can(cap), cap).toBe(false);
  });

  it('nest: every capability of a lower role is also in each higher role', () => {
    for (let i = 1; i < ROLE_NAMES.length; i++) {
      for (const cap of ROLES[ROLE_NAMES[i]].capabilities) {
        expect(ROLES[ROLE_NAMES[i - 1]].capabilities.has(cap), `${ROLE_NAMES[i - 1]} ${cap}`).toBe(true);
      }
    }
  });

  it('grant nothing for an unknown role name and combine several roles', () => {
    expect(capabilitiesOfRoles(['pirate']).size).toBe(0);
    const p = makePrincipal(user, ['subscriber', 'author'], { devMode: false });
    expect(p.can('upload_files')).toBe(true);
    expect(p.roles).toEqual(['subscriber', 'author']);
  });
});

describe('meta capabilities (docs/spec/jetpack-v4-reference.md §2)', () => {
  const table: [cap: string, role: string, devMode: boolean, expected: boolean][] = [
    ['jetpack_connect', 'administrator', false, true],
    ['jetpack_connect', 'administrator', true, false],
    ['jetpack_connect', 'editor', false, false],
    ['jetpack_reconnect', 'administrator', false, true],
    ['jetpack_reconnect', 'administrator', true, false],
    ['jetpack_disconnect', 'administrator', false, true],
    ['jetpack_disconnect', 'administrator', true, true],
    ['jetpack_disconnect', 'editor', false, false],
    ['jetpack_manage_modules', 'administrator', false, true],
    ['jetpack_manage_modules', 'editor', false, false],
    ['jetpack_activate_modules', 'administrator', true, true],
    ['jetpack_activate_modules', 'author', false, false],
    ['jetpack_deactivate_modules', 'administrator', false, true],
    ['jetpack_deactivate_modules', 'contributor', false, false],
    ['jetpack_configure_modules', 'administrator', false, true],
    ['jetpack_configure_modules', 'subscriber', false, false],
    ['jetpack_admin_page', 'subscriber', false, true],
    ['jetpack_admin_page', 'subscriber', true, false],
    ['jetpack_admin_page', 'editor', true, false],
    ['jetpack_admin_page', 'administrator', true, true],
    ['jetpack_connect_user', 'subscriber', false, true],
    ['jetpack_connect_user', 'administrator', true, false],
    ['jetpack_network_admin_page', 'administrator', false, false],
    ['jetpack_network_settings_page', 'administrator', false, false],
    ['jetpack_network_sites_page', 'administrator', false, false],
    ['manage_network_plugins', 'administrator', false, false],
    ['do_not_allow', 'administrator', false, false],
  ];

  it.each(table)('%s for %s in dev mode %s → %s', (cap, role, devMode, expected) => {
    expect(as(role, devMode).can(cap)).toBe(expected);
  });

  it('reads dev mode at every check when given a function', () => {
    let dev = false;
    const p = makePrincipal(user, ['subscriber'], { devMode: () => dev });
    expect(p.can('jetpack_connect_user')).toBe(true);
    dev = true;
    expect(p.can('jetpack_connect_user')).toBe(false);
  });
});

describe('the anonymous principal', () => {
  it('is user 0 with no roles and only `exist`', () => {
    const anon = anonymousPrincipal();
    expect(anon.id).toBe(0);
    expect(anon.roles).toEqual([]);
    expect(anon.can('exist')).toBe(true);
    expect(anon.can('read')).toBe(false);
    expect(anon.can('jetpack_admin_page')).toBe(false);
  });
});
