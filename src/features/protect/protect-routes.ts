/**
 * Siteward's own Protect routes (`siteward/v1/protect/…`), administrators only: blocks and
 * failed attempts (paged as WordPress pages collections: `page`, `per_page`, `X-WP-Total`,
 * `X-WP-TotalPages`), lifting one block or all, and who is told about new blocks. They show in
 * the namespace index with their arguments.
 */
import type { SitewardApi } from '../../plugins/api.js';
import { RestResponse, type ArgDefinition, type PermissionCallback, type RestRequest } from '../../rest/types.js';
import { SITEWARD_NAMESPACE } from '../history-route.js';
import { pagingHeaders } from '../pagination.js';
import type { ProtectAttempt, ProtectBlock, ProtectNotificationsAnswer } from '../../wire/siteward-v1.js';
import type { AttemptView, BlockView, Page } from './protect-blocks.js';
import { protectError } from './protect-errors.js';
import type { ProtectService } from './protect-service.js';

const PAGE_ARGS: Record<string, ArgDefinition> = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'Current page of the collection.' },
  per_page: {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Maximum number of items to be returned in result set.',
  },
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
const pageNumber = (request: RestRequest): number => Math.max(1, Number(request.params.page));

/** The page as a response with the paging headers; a page past the last is WordPress's 400. */
function paged<T>(request: RestRequest, url: string, page: Page<T>, json: (item: T) => unknown): unknown {
  const number = pageNumber(request);
  const perPage = Number(request.params.per_page);
  const totalPages = Math.ceil(page.total / perPage);
  if (number > totalPages && page.total > 0) return protectError('invalid_page_number');
  return new RestResponse(page.items.map(json), 200, pagingHeaders(page.total, number, perPage, request, url));
}

/** The JSON body (or form fields) as an object. */
function body(request: RestRequest): Record<string, unknown> {
  const json = request.json;
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : request.bodyParams;
}

/** `channels`: whether SMTP and the monitor webhook are configured (the screen says what a choice does). */
export function registerProtectRoutes(
  api: SitewardApi,
  service: ProtectService,
  permission: PermissionCallback,
  channels: { readonly mail: boolean; readonly webhook: boolean },
): void {
  const by = (request: RestRequest) => `rest:${request.user.login}`;
  api.registerRoute(SITEWARD_NAMESPACE, '/protect/blocks', [
    {
      methods: 'GET',
      permissionCallback: permission,
      args: {
        ...PAGE_ARGS,
        active: {
          type: 'boolean',
          default: false,
          description:
            'Only blocks in force now; otherwise current and recent ones (kept for the escalation window, 24 hours after they end).',
        },
      },
      callback: async (request) => {
        const result = await service.blocksPage(pageNumber(request), Number(request.params.per_page), request.params.active === true);
        return paged(request, api.restUrl('/siteward/v1/protect/blocks'), result, blockJson);
      },
    },
    {
      methods: 'DELETE',
      permissionCallback: permission,
      callback: async (request) => ({ unblocked: await service.unblockAll(by(request)) }),
    },
  ]);
  // An IPv6 /64 may be given with its suffix (`…/blocks/2001:db8:1:2::/64`) or as any of its addresses.
  api.registerRoute(SITEWARD_NAMESPACE, '/protect/blocks/(?P<address>[0-9A-Fa-f:.]+(?:/64)?)', {
    methods: 'DELETE',
    permissionCallback: permission,
    args: { address: { type: 'string', description: 'An IPv4 address, an IPv6 address or its /64.' } },
    callback: async (request) => {
      const outcome = await service.unblock(String(request.urlParams.address), by(request));
      return outcome.ok ? { unblocked: true, address: outcome.value.address } : outcome.error;
    },
  });
  api.registerRoute(SITEWARD_NAMESPACE, '/protect/attempts', {
    methods: 'GET',
    permissionCallback: permission,
    args: PAGE_ARGS,
    callback: async (request) => {
      const result = await service.attemptsPage(pageNumber(request), Number(request.params.per_page));
      return paged(request, api.restUrl('/siteward/v1/protect/attempts'), result, attemptJson);
    },
  });
  const loose = (description: string, type: string): ArgDefinition => ({
    type,
    description,
    sanitizeCallback: null,
    validateCallback: () => true,
  });
  api.registerRoute(SITEWARD_NAMESPACE, '/protect/notifications', [
    {
      methods: 'GET',
      permissionCallback: permission,
      callback: async (): Promise<ProtectNotificationsAnswer> => ({
        ...(await service.notifications()),
        choices: await service.administrators(),
        mail_configured: channels.mail,
        webhook_configured: channels.webhook,
      }),
    },
    {
      methods: 'POST, PUT, PATCH',
      permissionCallback: permission,
      // Administrator ids and a flag.
      maxBodyBytes: 16 * 1024,
      args: {
        administrators: loose('User ids of the administrators e-mailed when an address is blocked (one digest an hour at most).', 'array'),
        webhook: loose('Also post new blocks to the monitor webhook (SITEWARD_MONITOR_WEBHOOK).', 'boolean'),
      },
      callback: async (request) => {
        const outcome = await service.setNotifications(body(request));
        return outcome.ok ? outcome.value : outcome.error;
      },
    },
  ]);
}
