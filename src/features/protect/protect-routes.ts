/**
 * Siteward's own Protect routes (`siteward/v1/protect/…`), administrators only: blocks and
 * failed attempts (paged as WordPress pages collections: `page`, `per_page`, `X-WP-Total`,
 * `X-WP-TotalPages`), lifting one block or all, and who is told about new blocks. They show in
 * the namespace index with their arguments.
 */
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../../plugins/api.js';
import { answers, asNamed, checkedByHandler, defineRoute, type NamedPermission } from '../../rest/define-route.js';
import { RestResponse, type PermissionCallback, type RestRequest } from '../../rest/types.js';
import { SITEWARD_NAMESPACE } from '../history-route.js';
import { pagingHeaders } from '../pagination.js';
import type { ProtectAttempt, ProtectBlock, ProtectNotificationsAnswer } from '../../wire/siteward-v1.js';
import type { AttemptView, BlockView, Page } from './protect-blocks.js';
import { protectError } from './protect-errors.js';
import type { ProtectService } from './protect-service.js';
import type { RequestSources } from '../audit/index.js';

const PAGE_QUERY = {
  page: Type.Integer({ minimum: 1, default: 1, description: 'Current page of the collection.' }),
  per_page: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Maximum number of items to be returned in result set.',
  }),
};

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function blockJson(block: BlockView): ProtectBlock {
  return {
    address: block.address,
    last_address: block.lastAddress,
    active: block.active,
    level: block.level,
    failures: block.failures,
    blocked_attempts: block.blockedAttempts,
    usernames: block.usernames,
    first_attempt: iso(block.firstAttempt),
    last_attempt: iso(block.lastAttempt),
    blocked_at: iso(block.blockedAt),
    blocked_until: iso(block.blockedUntil),
    lifted_at: isoOrNull(block.liftedAt),
    lifted_by: block.liftedBy,
  };
}

function attemptJson(attempt: AttemptView): ProtectAttempt {
  return {
    at: iso(attempt.at),
    address: attempt.address,
    key: attempt.key,
    login: attempt.login,
    outcome: attempt.outcome,
    failure: attempt.failure,
  };
}

/**
 * The page asked for. PHP's `(int)` makes `page=1e400` 0 (WordPress's own validation passes it),
 * which WordPress's queries read as the first page.
 */
function firstPageAtLeast(query: { page: number; per_page: number }): { page: number; per_page: number } {
  return { page: Math.max(1, query.page), per_page: query.per_page };
}

/** The page as a response with the paging headers; a page past the last is WordPress's 400. */
function paged<T>(
  request: RestRequest,
  url: string,
  { page: number, per_page: perPage }: { page: number; per_page: number },
  page: Page<T>,
  json: (item: T) => unknown,
): unknown {
  const totalPages = Math.ceil(page.total / perPage);
  if (number > totalPages && page.total > 0) return protectError('invalid_page_number');
  return new RestResponse(page.items.map(json), 200, pagingHeaders(page.total, number, perPage, request, url));
}

/** `channels`: whether SMTP and the monitor webhook are configured (the screen says what a choice does). */
export function registerProtectRoutes(
  api: SitewardApi,
  service: ProtectService,
  check: NamedPermission | PermissionCallback,
  channels: { readonly mail: boolean; readonly webhook: boolean },
  sources: RequestSources,
): void {
  const permission = asNamed(check);
  const by = (request: RestRequest) => `rest:${request.user.login}`;
  api.registerRoute(SITEWARD_NAMESPACE, '/protect/blocks', [
    defineRoute({
      query: Type.Object({
        ...PAGE_QUERY,
        active: Type.Boolean({
          default: false,
          description:
            'Only blocks in force now; otherwise current and recent ones (kept for the escalation window, 24 hours after they end).',
        }),
      }),
      permission,
      handler: async ({ query, request }) => {
        const page = firstPageAtLeast(query);
        const result = await service.blocksPage(page.page, page.per_page, query.active === true);
        return paged(request, api.restUrl('/siteward/v1/protect/blocks'), page, result, blockJson);
      },
    }),
    defineRoute({
      methods: 'DELETE',
      permission,
      handler: async ({ request }) => ({ unblocked: await service.unblockAll(by(request), await sources.of(request)) }),
    }),
  ]);
  // An IPv6 /64 may be given with its suffix (`…/blocks/2001:db8:1:2::/64`) or as any of its addresses.
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/protect/blocks/(?P<address>[0-9A-Fa-f:.]+(?:/64)?)',
    defineRoute({
      methods: 'DELETE',
      params: Type.Object({ address: Type.String({ description: 'An IPv4 address, an IPv6 address or its /64.', asArgument: true }) }),
      permission,
      handler: async ({ params, request }) => {
        const outcome = await service.unblock(params.address, by(request), await sources.of(request));
        return outcome.ok ? { unblocked: true, address: outcome.value.address } : outcome.error;
      },
    }),
  );
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/protect/attempts',
    defineRoute({
      query: Type.Object(PAGE_QUERY),
      permission,
      handler: async ({ query, request }) => {
        const page = firstPageAtLeast(query);
        const result = await service.attemptsPage(page.page, page.per_page);
        return paged(request, api.restUrl('/siteward/v1/protect/attempts'), page, result, attemptJson);
      },
    }),
  );
  api.registerRoute(SITEWARD_NAMESPACE, '/protect/notifications', [
    defineRoute({
      permission,
      response: answers<ProtectNotificationsAnswer>(),
      handler: async () => ({
        ...(await service.notifications()),
        choices: await service.administrators(),
        mail_configured: channels.mail,
        webhook_configured: channels.webhook,
      }),
    }),
    defineRoute({
      methods: 'POST, PUT, PATCH',
      // Administrator ids and a flag.
      maxBodyBytes: 16 * 1024,
      // Checked by the service (one parser for REST and the CLI).
      body: Type.Object({
        administrators: Type.Optional(
          checkedByHandler('array', 'User ids of the administrators e-mailed when an address is blocked (one digest an hour at most).'),
        ),
        webhook: Type.Optional(checkedByHandler('boolean', 'Also post new blocks to the monitor webhook (SITEWARD_MONITOR_WEBHOOK).')),
      }),
      permission,
      handler: async ({ body, request }) => {
        const outcome = await service.setNotifications(body, await sources.of(request));
        return outcome.ok ? outcome.value : outcome.error;
      },
    }),
  ]);
}
