/**
 * `siteward/v1/agent-clients` (issue 42 item 6, the Connection screen's list): the agent clients
 * that signed in with a bearer token, and revoking one. Administrators (`manage_options`) only.
 */
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../../plugins/api.js';
import { defineRoute, permission } from '../../rest/define-route.js';
import { errorCatalogue } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/types.js';
import type { RequestSources } from '../audit/index.js';
import type { AgentClients } from './agent-clients.js';

const agentClientError = errorCatalogue({
  not_found: { code: 'siteward_agent_client_not_found', message: 'No agent client with this id has signed in to this site.', status: 404 },
});

const administrators = permission('manage_options', (request: RestRequest) => request.user.can('manage_options'));

export function registerAgentClientRoutes(api: Pick<SitewardApi, 'registerRoute'>, clients: AgentClients, sources: RequestSources): void {
  api.registerRoute(
    'siteward/v1',
    '/agent-clients',
    defineRoute({
      permission: administrators,
      handler: () => clients.list(),
    }),
  );
  api.registerRoute(
    'siteward/v1',
    '/agent-clients/(?P<client_id>[^/]+)',
    defineRoute({
      methods: 'DELETE',
      params: Type.Object({ client_id: Type.String({ description: 'The OAuth client id of the agent.' }) }),
      permission: administrators,
      handler: async ({ params, request }) => {
        const previous = await clients.revoke(params.client_id, await sources.of(request));
        return previous ? { deleted: true, previous } : agentClientError('not_found');
      },
    }),
  );
}
