// What is measured. Each scenario is a list of requests that every connection cycles through
// (one request, or the true/false pair of the toggle) and the status every response must have.
import { settings as load } from './measure.js';

const MODULE_ALL = '/wp-json/jetpack/v4/module/all';
const SETTINGS = '/wp-json/jetpack/v4/settings';
const MARKDOWN = '/wp-json/jetpack/v4/module/markdown';

const get = (path, headers = {}) => ({ method: 'GET', path, headers });
const postJson = (path, auth, value) => ({
  method: 'POST',
  path,
  headers: { ...auth, 'Content-Type': 'application/json' },
  body: JSON.stringify(value),
});

/** Authenticated GET module/all: the main read path, also used by the scaling comparisons. */
export const moduleAll = (auth) => ({ name: 'GET module/all', requests: [get(MODULE_ALL, auth)], expect: '2xx' });

/** Authenticated GET settings: the read path of the sessions comparison. */
export const settings = (auth) => ({ name: 'GET settings', requests: [get(SETTINGS, auth)], expect: '2xx' });

/** The same read with an application password (HTTP Basic) instead of the login cookie (issue 38: ≥ 0.80 of the cookie row). */
export const settingsBasic = (authorization) => ({
  name: 'GET settings (Basic)',
  requests: [get(SETTINGS, { Authorization: authorization })],
  expect: '2xx',
});

/**
 * Issue 44: the readonly ability over the same operation as module/all, run over REST
 * (`wp-abilities/v1`, GET with no input): its cost is compared with the route's.
 */
export const abilityListModules = (auth) => ({
  name: 'GET ability list-modules (REST run)',
  requests: [get('/wp-json/wp-abilities/v1/abilities/siteward/list-modules/run', auth)],
  expect: '2xx',
});

/** Issue 44: the same ability as an MCP tools/call through the WordPress adapter's server, with an application password. */
export const mcpListModules = (authorization) => ({
  name: 'POST MCP tools/call list-modules (Basic)',
  requests: [
    {
      method: 'POST',
      path: '/wp-json/mcp/mcp-adapter-default-server',
      headers: { Authorization: authorization, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'mcp-adapter-execute-ability', arguments: { ability_name: 'siteward/list-modules', parameters: {} } },
      }),
    },
  ],
  expect: '2xx',
});

/**
 * Issue 44: a page of 100 audit events (the Activity screen's first page; the store holds the
 * events seeded before the server started). The name is report.js's AUDIT_LIST_ROW.
 */
export const auditList = (auth) => ({
  name: 'GET siteward/v1/audit?per_page=100',
  requests: [get('/wp-json/siteward/v1/audit?per_page=100', auth)],
  expect: '2xx',
});

/**
 * The same route in Jetpack 4.3+'s shape (SITEWARD_SETTINGS_SHAPE=current): every module's
 * options in one object, what today's Jetpack admin reads (docs/spec/current-clients.md A.4).
 * It needs a server started with that setting.
 */
export const SETTINGS_CURRENT_ENV = { SITEWARD_SETTINGS_SHAPE: 'current' };
export const settingsCurrent = (auth) => ({ name: 'GET settings (4.3+ shape)', requests: [get(SETTINGS, auth)], expect: '2xx' });

/** Authenticated GET wp/v2/users/me (view context): what @wordpress/core-data asks for first. */
export const usersMe = (auth) => ({ name: 'GET wp/v2/users/me', requests: [get('/wp-json/wp/v2/users/me', auth)], expect: '2xx' });

/**
 * Authenticated GET of the wp/v2/users collection, a page of 100 in view context (the block
 * editor's and core-data's user lists; here the store holds the administrator only, the
 * users of the update rows come later).
 */
export const usersList = (auth) => ({
  name: 'GET wp/v2/users (collection)',
  requests: [get('/wp-json/wp/v2/users?context=view&per_page=100', auth)],
  expect: '2xx',
});

const putJson = (path, auth, value) => ({ ...postJson(path, auth, value), method: 'PUT' });
/**
 * Connections of both user-update rows: every update is a durable write, one at a time on the
 * store, so 64 connections would only queue batches past the run's end (a batch carries 10).
 */
const UPDATE_CONNECTIONS = 4;

/** The one change every user update of the batch rows makes (the same each time: every answer is a 2xx). */
const USER_CHANGE = { description: 'Benchmarked.' };

/** The same 10 user updates sent one by one: each connection cycles through them. `logicalPerRequest`: updates per request. */
export const userUpdatesOneByOne = (auth, ids) => ({
  name: `PUT wp/v2/users/{id}, ${ids.length} one by one`,
  requests: ids.map((id) => putJson(`/wp-json/wp/v2/users/${id}`, auth, USER_CHANGE)),
  expect: '2xx',
  logicalPerRequest: 1,
  connections: UPDATE_CONNECTIONS,
});

/** The same updates in one batch/v1 request (WordPress 5.6's, as core-data sends it): 207, each item 200. */
export const userUpdatesBatch = (auth, ids) => ({
  name: `POST batch/v1 of ${ids.length} user updates`,
  requests: [
    postJson('/wp-json/batch/v1', auth, {
      validation: 'require-all-validate',
      requests: ids.map((id) => ({ method: 'PUT', path: `/wp/v2/users/${id}`, body: USER_CHANGE })),
    }),
  ],
  expect: 207,
  logicalPerRequest: ids.length,
  connections: UPDATE_CONNECTIONS,
});

/** The single-server scenarios, in report order. `auth` holds the Cookie and X-WP-Nonce headers. */
export function mainScenarios(auth) {
  return [
    { name: 'GET / index (anon)', requests: [get('/wp-json/')], expect: '2xx' },
    moduleAll(auth),
    settings(auth),
    usersMe(auth),
    usersList(auth),
    {
      // One connection alternating activate/deactivate: each request is a durable write and each
      // answer a 2xx. Parallel connections on one module would race, and a deactivation that
      // loses the race is rightly a 409 already_inactive (docs/spec/jetpack-v4-reference.md §3.9).
      name: 'POST markdown/active toggle (1 conn)',
      requests: [postJson(`${MARKDOWN}/active`, auth, { active: true }), postJson(`${MARKDOWN}/active`, auth, { active: false })],
      expect: '2xx',
      toggle: true,
      connections: 1,
    },
    { name: 'OPTIONS module/markdown', requests: [{ method: 'OPTIONS', path: MARKDOWN, headers: {} }], expect: '2xx' },
    {
      name: 'POST active "maybe" → 400',
      requests: [postJson(`${MARKDOWN}/active`, auth, { active: 'maybe' })],
      expect: 400,
      expectCode: 'rest_invalid_param',
    },
    {
      // The same refusal for a body that is never sent twice while an answer to it could be kept
      // (each connection cycles through 4 values of its own; a target keeps 16 answers): the cost
      // of the whole path, where the row above measures a repeat. Reported, not judged.
      name: 'POST active → 400, no repeats',
      requests: [postJson(`${MARKDOWN}/active`, auth, { active: 'm0000' })],
      connectionRequests: Array.from({ length: load.connections }, (_, c) =>
        [0, 1, 2, 3].map((k) => postJson(`${MARKDOWN}/active`, auth, { active: `m${String(c * 4 + k).padStart(4, '0')}` })),
      ),
      expect: 400,
      expectCode: 'rest_invalid_param',
    },
    { name: 'GET ?rest_route=module/all', requests: [get('/?rest_route=/jetpack/v4/module/all', auth)], expect: '2xx' },
    // The admin page's HTML with Initial_State inline (issue 15: ≤ 2 ms of server CPU). The cookie only.
    { name: 'GET /admin/ (HTML)', requests: [get('/admin/', auth.Cookie ? { Cookie: auth.Cookie } : {})], expect: '2xx' },
  ];
}

/** Modules that toggle without side effects beyond the option, in order of preference. */
export const TOGGLE_CANDIDATES = [
  'markdown',
  'latex',
  'shortcodes',
  'widgets',
  'custom-css',
  'carousel',
  'tiled-gallery',
  'gravatar-hovercards',
  'widget-visibility',
  'shortlinks',
  'verification-tools',
  'custom-content-types',
  'infinite-scroll',
  'contact-form',
];

/**
 * Durable toggles from several connections at once, each connection on its own module and
 * alternating activate/deactivate (activation first: it succeeds also when already active, so
 * every answer is a 2xx whatever the previous run left). `requests` lists them all, for the
 * probe; `connectionRequests` gives connection i the pair of module i.
 */
export function parallelToggles(auth, modules) {
  const pairs = modules.map((slug) => [
    postJson(`/wp-json/jetpack/v4/module/${slug}/active`, auth, { active: true }),
    postJson(`/wp-json/jetpack/v4/module/${slug}/active`, auth, { active: false }),
  ]);
  return {
    name: `POST toggles, ${modules.length} conns on ${modules.length} modules`,
    requests: pairs.flat(),
    connectionRequests: pairs,
    connections: modules.length,
    expect: '2xx',
    toggle: true,
  };
}
