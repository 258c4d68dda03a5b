/**
 * Every error of the `wp/v2` platform routes, in one catalogue, with WordPress's codes and
 * messages (docs/spec/current-clients.md §B.4, §B.6, §C.1, §C.2, §D.4). `auth` as status means
 * WordPress's `rest_authorization_required_code()`: 401 logged out, 403 logged in.
 */
import { authorizationRequiredStatus, RestError } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/types.js';

type Status = number | 'auth';

const catalogue = {
  // Users (§B.4).
  user_invalid_id: ['rest_user_invalid_id', 'Invalid user ID.', 404],
  not_logged_in: ['rest_not_logged_in', 'You are not currently logged in.', 401],
  cannot_filter_roles: ['rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.', 'auth'],
  forbidden_context_list: ['rest_forbidden_context', 'Sorry, you are not allowed to edit users.', 'auth'],
  forbidden_context_item: ['rest_forbidden_context', 'Sorry, you are not allowed to edit this user.', 'auth'],
  forbidden_orderby: ['rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.', 'auth'],
  cannot_view: ['rest_user_cannot_view', 'Sorry, you are not allowed to list users.', 'auth'],
  forbidden_who: ['rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.', 'auth'],
  invalid_page_number: ['rest_user_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400],
  cannot_create: ['rest_cannot_create_user', 'Sorry, you are not allowed to create new users.', 'auth'],
  user_exists: ['rest_user_exists', 'Cannot create existing user.', 400],
  cannot_edit: ['rest_cannot_edit', 'Sorry, you are not allowed to edit this user.', 'auth'],
  cannot_edit_roles: ['rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.', 'auth'],
  cannot_delete: ['rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.', 'auth'],
  trash_not_supported: ['rest_trash_not_supported', "Users do not support trashing. Set 'force=true' to delete.", 501],
  invalid_reassign: ['rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400],
  invalid_reassign_param: ['rest_invalid_param', 'Invalid user parameter(s).', 400],
  username_not_editable: ['rest_user_invalid_argument', 'Username is not editable.', 400],
  invalid_email: ['rest_user_invalid_email', 'Invalid email address.', 400],
  invalid_slug: ['rest_user_invalid_slug', 'Invalid slug.', 400],
  empty_password: ['rest_user_invalid_password', 'Passwords cannot be empty.', 400],
  backslash_password: ['rest_user_invalid_password', 'Passwords cannot contain the "\\" character.', 400],
  role_not_allowed: ['rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', 403],
  self_demotion: ['rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', 'auth'],
  // Siteward's own rule (docs/spec/current-clients.md §B.6 ⚠ decision): WordPress's codes, a message that says why.
  last_admin_demotion: ['rest_user_invalid_role', 'This is the last administrator: give another user the administrator role first, or nobody could manage the site.', 409],
  last_admin_deletion: ['rest_cannot_delete', 'The user cannot be deleted: this is the last administrator, and nobody could manage the site without one. Give another user the administrator role first.', 409],
  // Application passwords (§C.1, §C.2).
  cannot_list_app_passwords: ['rest_cannot_list_application_passwords', 'Sorry, you are not allowed to list application passwords for this user.', 'auth'],
  cannot_create_app_passwords: ['rest_cannot_create_application_passwords', 'Sorry, you are not allowed to create application passwords for this user.', 'auth'],
  cannot_delete_app_passwords: ['rest_cannot_delete_application_passwords', 'Sorry, you are not allowed to delete application passwords for this user.', 'auth'],
  cannot_read_app_password: ['rest_cannot_read_application_password', 'Sorry, you are not allowed to read this application password.', 'auth'],
  cannot_edit_app_password: ['rest_cannot_edit_application_password', 'Sorry, you are not allowed to edit this application password.', 'auth'],
  cannot_delete_app_password: ['rest_cannot_delete_application_password', 'Sorry, you are not allowed to delete this application password.', 'auth'],
  cannot_introspect: ['rest_cannot_introspect_app_password_for_non_authenticated_user', 'The authenticated application password can only be introspected for the current user.', 'auth'],
  app_password_not_found: ['rest_application_password_not_found', 'Application password not found.', 404],
  app_password_vanished: ['rest_application_password_not_found', 'Application password not found.', 500],
  no_app_password: ['rest_no_authenticated_app_password', 'Cannot introspect application password.', 404],
  app_password_empty_name: ['application_password_empty_name', 'An application name is required to create an application password.', 400],
  app_password_duplicate_name: ['application_password_duplicate_name', 'Each application name should be unique.', 409],
} as const satisfies Record<string, readonly [string, string, Status]>;

export type WpErrorId = keyof typeof catalogue;

/**
 * Builds a catalogue error; `auth` statuses follow whether the request is logged in.
 *
 * @example
 * wpError('user_invalid_id') // 404 rest_user_invalid_id "Invalid user ID."
 */
export function wpError(id: WpErrorId, request?: RestRequest, extra?: Record<string, unknown>): RestError {
  const [code, message, status] = catalogue[id];
  const resolved = status === 'auth' ? authorizationRequiredStatus((request?.user.id ?? 0) !== 0) : status;
  return new RestError(code, message, { status: resolved, ...extra });
}

/** 400 `rest_user_invalid_role` for a role that does not exist (WordPress: `The role %s does not exist.`). */
export function unknownRoleError(role: string): RestError {
  return new RestError('rest_user_invalid_role', `The role ${role} does not exist.`, { status: 400 });
}

/**
 * A user-service error (login, e-mail, password rules) on the wire: WordPress's codes where it
 * has them. WordPress answers its user-insert errors with no status (500); clients key on the
 * code, so Siteward answers 400 (docs/spec/current-clients.md §B.4 ⚠ decision).
 */
export function userServiceError(error: { readonly code: string; readonly message: string }): RestError {
  const code = error.code.startsWith('password_') || error.code === 'empty_password' ? 'rest_user_invalid_password' : error.code === 'invalid_email' ? 'rest_user_invalid_email' : error.code;
  return new RestError(code, error.message, { status: 400 });
}
