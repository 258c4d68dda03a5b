/**
 * The route table: every REST route, page and asset mount of a running Siteward with who
 * registered it (fastify's `printRoutes`, hono's `showRoutes`). `siteward routes` prints it and
 * docs/routes.md is generated from it.
 */
import { textTable } from './text-table.js';

export interface RouteRow {
  /** `GET`, `POST`, …; `*` for any method. */
  readonly method: string;
  /** The URL path (REST routes with the REST prefix, patterns as registered). */
  readonly path: string;
  /** What serves it: `rest` (index documents), `http` (the adapter's own pages), a feature's name, or `plugin:<name>`. */
  readonly owner: string;
  /** The permission check: a capability or check name, `none` (anyone), `custom`, or `page` (the page decides). */
  readonly permission: string;
  /** Callable inside a `batch/v1` request: `v1` or `no`. */
  readonly batchable: string;
}

const COLUMNS = ['method', 'path', 'owner', 'permission', 'batchable'] as const;

/** Aligned plain-text columns, one row per line, with a header. */
export function formatRouteTable(rows: readonly RouteRow[]): string[] {
  return textTable(
    COLUMNS,
    rows.map((r) => COLUMNS.map((c) => r[c])),
  );
}

/** A Markdown table of the rows. */
export function routeTableMarkdown(rows: readonly RouteRow[]): string[] {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    `| ${COLUMNS.join(' | ')} |`,
    `|${COLUMNS.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.method} | \`${cell(r.path)}\` | ${r.owner} | ${r.permission} | ${r.batchable} |`),
  ];
}

/** The whole docs/routes.md: the table of the default configuration, with how to read it. */
export function routesDocument(rows: readonly RouteRow[]): string {
  return [
    '# Routes: who serves which path',
    '',
    '<!-- Generated from the running code by `npm run docs:generate`; test/generated-docs.test.ts fails when it differs. Do not edit. -->',
    '',
    'Every REST route, page and asset mount of Siteward with the built-in features and the default',
    'settings, in registration order, as `siteward routes` prints it (that command shows your own',
    'configuration, plugins included). Each is recorded when it is registered:',
    '',
    '- **owner**: the feature (src/features/<name>) or plugin (`plugin:<name>`) that registered it;',
    "  `rest` is the REST layer's own index documents, `http` the HTTP adapter's own pages",
    '  (src/http); `(no match)` is what answers any other path: the 404 page for browsers, a JSON',
    '  `rest_no_route` / `rest_not_found` error otherwise.',
    '- **permission**: the check the REST layer runs before the handler, by its name (a Jetpack',
    '  check, a capability, `login_session`: a logged-in user by login session, not application',
    "  password), `public` (anyone), `custom` (an unnamed check of a plugin's own), `none` (no",
    '  check); `page`: the page decides itself.',
    '- **batchable**: `v1` when the route may be called inside a `batch/v1` request',
    "  (`allowBatch: { v1: true }`, WordPress's `allow_batch`), else `no`.",
    '',
    'REST paths are shown under the default prefix `/wp-json` (`SITEWARD_REST_PREFIX`); each is',
    'also served as `/index.php/wp-json/…` and `/?rest_route=/…`.',
    '',
    ...routeTableMarkdown(rows),
    '',
  ].join('\n');
}
