/**
 * Every error of the `wp/v2` platform routes, in one catalogue, with WordPress's codes and
 * messages (docs/spec/current-clients.md §B.4, §B.6, §C.1, §C.2).
 */
import { authorizationRequiredStatus, errorCatalogue, invalidParams, RestError, type CatalogueId } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/types.js';
import { tooManyAppPasswords } from '../../auth/app-passwords.js';

const build = errorCatalogue({
  // Users (§B.4).
  user_invalid_id: { code: 'rest_user_invalid_id', message: 'Invalid user ID.', status: 404 },
  not_logged_in: { code: 'rest_not_logged_in', message: 'You are not currently logged in.', status: 401 },
  cannot_filter_roles: { code: 'rest_user_cannot_view', message: 'Sorry, you are not allowed to filter users by role.', status: 403 },
  forbidden_context_list: { code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to edit users.', status: 403 },
  forbidden_context_item: { code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to edit this user.', status: 403 },
  forbidden_orderby: {
    code: 'rest_forbidden_orderby',
    message: 'Sorry, you are not allowed to order users by this parameter.',
    status: 403,
  },
  cannot_view: { code: 'rest_user_cannot_view', message: 'Sorry, you are not allowed to list users.', status: 403 },
  forbidden_who: { code: 'rest_forbidden_who', message: 'Sorry, you are not allowed to query users by this parameter.', status: 403 },
  invalid_page_number: {
    code: 'rest_user_invalid_page_number',
    message: 'The page number requested is larger than the number of pages available.',
    status: 400,
  },
  cannot_create: { code: 'rest_cannot_create_user', message: 'Sorry, you are not allowed to create new users.', status: 403 },
  user_exists: { code: 'rest_user_exists', message: 'Cannot create existing user.', status: 400 },
  cannot_edit: { code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to edit this user.', status: 403 },
  cannot_edit_roles: { code: 'rest_cannot_edit_roles', message: 'Sorry, you are not allowed to edit roles of this user.', status: 403 },
  cannot_delete: { code: 'rest_user_cannot_delete', message: 'Sorry, you are not allowed to delete this user.', status: 403 },
  trash_not_supported: {
    code: 'rest_trash_not_supported',
    message: "Users do not support trashing. Set 'force=true' to delete.",
    status: 501,
  },
  invalid_reassign: { code: 'rest_user_invalid_reassign', message: 'Invalid user ID for reassignment.', status: 400 },
  invalid_reassign_param: { code: 'rest_invalid_param', message: 'Invalid user parameter(s).', status: 400 },
  username_not_editable: { code: 'rest_user_invalid_argument', message: 'Username is not editable.', status: 400 },
  invalid_email: { code: 'rest_user_invalid_email', message: 'Invalid email address.', status: 400 },
  invalid_slug: { code: 'rest_user_invalid_slug', message: 'Invalid slug.', status: 400 },
  // wp_insert_user's limits, with its codes and messages (WordPress answers them 500; 400 here, as §B.4 ⚠ decides).
  login_too_long: { code: 'user_login_too_long', message: 'Username may not be longer than 60 characters.', status: 400 },
  nicename_too_long: { code: 'user_nicename_too_long', message: 'Nicename may not be longer than 50 characters.', status: 400 },
  url_too_long: { code: 'user_url_too_long', message: 'User URL may not be longer than 100 characters.', status: 400 },
  empty_password: { code: 'rest_user_invalid_password', message: 'Passwords cannot be empty.', status: 400 },
  backslash_password: { code: 'rest_user_invalid_password', message: 'Passwords cannot contain the "\\" character.', status: 400 },
  role_not_allowed: { code: 'rest_user_invalid_role', message: 'Sorry, you are not allowed to give users that role.', status: 403 },
  self_demotion: { code: 'rest_user_invalid_role', message: 'Sorry, you are not allowed to give users that role.', status: 403 },
  // Siteward's own rule (docs/spec/current-clients.md §B.6 ⚠ decision): WordPress's codes, a message that says why.
  last_admin_demotion: {
    code: 'rest_user_invalid_role',
    message: 'This is the last administrator: give another user the administrator role first, or nobody could manage the site.',
    status: 409,
  },
  last_admin_deletion: {
    code: 'rest_cannot_delete',
    message:
      'The user cannot be deleted: this is the last administrator, and nobody could manage the site without one. Give another user the administrator role first.',
    status: 409,
  },
  // Application passwords (§C.1, §C.2).
  cannot_list_app_passwords: {
    code: 'rest_cannot_list_application_passwords',
    message: 'Sorry, you are not allowed to list application passwords for this user.',
    status: 403,
  },
  cannot_create_app_passwords: {
    code: 'rest_cannot_create_application_passwords',
    message: 'Sorry, you are not allowed to create application passwords for this user.',
    status: 403,
  },
  cannot_delete_app_passwords: {
    code: 'rest_cannot_delete_application_passwords',
    message: 'Sorry, you are not allowed to delete application passwords for this user.',
    status: 403,
  },
  cannot_read_app_password: {
    code: 'rest_cannot_read_application_password',
    message: 'Sorry, you are not allowed to read this application password.',
    status: 403,
  },
  cannot_edit_app_password: {
    code: 'rest_cannot_edit_application_password',
    message: 'Sorry, you are not allowed to edit this application password.',
    status: 403,
  },
  cannot_delete_app_password: {
    code: 'rest_cannot_delete_application_password',
    message: 'Sorry, you are not allowed to delete this application password.',
    status: 403,
  },
  cannot_introspect: {
    code: 'rest_cannot_introspect_app_password_for_non_authenticated_user',
    message: 'The authenticated application password can only be introspected for the current user.',
    status: 403,
  },
  app_password_not_found: { code: 'rest_application_password_not_found', message: 'Application password not found.', status: 404 },
  app_password_vanished: { code: 'rest_application_password_not_found', message: 'Application password not found.', status: 500 },
  no_app_password: { code: 'rest_no_authenticated_app_password', message: 'Cannot introspect application password.', status: 404 },
  app_password_empty_name: {
    code: 'application_password_empty_name',
    message: 'An application name is required to create an application password.',
    status: 400,
  },
  app_password_duplicate_name: {
    code: 'application_password_duplicate_name',
    message: 'Each application name should be unique.',
    status: 409,
  },
  // Siteward's limit (WordPress has none): a clear 400 rather than an ever-growing list.
  app_password_limit: {
    code: 'application_password_limit_reached',
    message: tooManyAppPasswords,
    status: 400,
  },
  unknown_role: { code: 'rest_user_invalid_role', message: 'The role {role} does not exist.', status: 400 },
});

export type WpErrorId = CatalogueId<typeof build>;

/** Errors whose status is WordPress's `rest_authorization_required_code()`: 401 logged out, 403 logged in. */
const AUTH_STATUS: ReadonlySet<WpErrorId> = new Set<WpErrorId>([
  'cannot_filter_roles',
  'forbidden_context_list',
  'forbidden_context_item',
  'forbidden_orderby',
  'cannot_view',
  'forbidden_who',
  'cannot_create',
  'cannot_edit',
  'cannot_edit_roles',
  'cannot_delete',
  'self_demotion',
  'cannot_list_app_passwords',
  'cannot_create_app_passwords',
  'cannot_delete_app_passwords',
  'cannot_read_app_password',
  'cannot_edit_app_password',
  'cannot_delete_app_password',
  'cannot_introspect',
]);

/**
 * Builds a catalogue error without parameters; `auth` statuses follow whether the request is logged in.
 *
 * @example
 * wpError('user_invalid_id') // 404 rest_user_invalid_id "Invalid user ID."
 */
export function wpError(id: Exclude<WpErrorId, 'unknown_role'>, request?: RestRequest): RestError {
  if (!AUTH_STATUS.has(id)) return build(id);
  return build(id, { status: authorizationRequiredStatus((request?.user.id ?? 0) !== 0) });
}

/** 400 `rest_user_invalid_role` for a role that does not exist (WordPress: `The role %s does not exist.`). */
export function unknownRoleError(role: string): RestError {
  return build('unknown_role', { role });
}

/**
 * A user-service error (login, e-mail, password rules) on the wire: WordPress's codes where it
 * has them. WordPress answers its user-insert errors with no status (500); clients key on the
 * code, so Siteward answers 400 (docs/spec/current-clients.md §B.4 ⚠ decision).
 */
export function userServiceError(error: { readonly code: string; readonly message: string }): RestError {
  const code =
    error.code.startsWith('password_') || error.code === 'empty_password'
      ? 'rest_user_invalid_password'
      : error.code === 'invalid_email'
        ? 'rest_user_invalid_email'
        : error.code;
  return new RestError(code, error.message, { status: 400 });
}

/**
 * 400 `rest_invalid_param` for one argument a handler refused after the argument checks, in the
 * shape these routes answer (with WordPress 5.7+'s `details`).
 */
export function invalidArgument(name: string, message: string): RestError {
  return invalidParams({ [name]: message }, { [name]: { code: 'rest_invalid_param', message, data: { status: 400 } } });
}
