/**
 * The MCP servers (issue 42 items 3 and 4): the abilities of every feature and plugin, offered to
 * AI agents over the Model Context Protocol, signed in by application password or, with an
 * account service connected, by an OAuth 2.1 bearer token (Siteward is the resource server).
 * Registered after the features that register abilities and after the connection (whose linked
 * accounts map a token's subject to a site user).
 */
import { makePrincipal } from '../../auth/capabilities.js';
import type { Feature } from '../contract.js';
import { jsonPage } from '../contract.js';
import { RequestSources } from '../audit/index.js';
import { createAgentAuth } from './agent-auth.js';
import { AgentClients } from './agent-clients.js';
import { registerAgentClientRoutes } from './agent-clients-routes.js';
import { createBearerCheck } from './bearer-check.js';
import { metadataPages, registerMcpRoutes } from './mcp-routes.js';

export const mcpFeature: Feature = {
  name: 'mcp',
  register(ctx) {
    const registry = ctx.need('abilityRegistry');
    const signIn = ctx.need('connection').signIn;
    const devMode = () => {
      const mode = ctx.site.devMode();
      return mode.constant || mode.url;
    };
    const auth =
      signIn === null
        ? null
        : createAgentAuth({
            issuer: signIn.issuer,
            clock: ctx.clock,
            usersLinkedTo: (subject) => signIn.usersLinkedTo(subject),
            principal: async (userId) => {
              const user = await ctx.store.users.byId(userId);
              return user === undefined ? undefined : makePrincipal(user, await ctx.store.users.roles(userId), { devMode });
            },
          });
    const clients = new AgentClients(ctx.store, ctx.clock);
    const bearer = createBearerCheck({
      auth,
      registry,
      clients,
      warn: (error) => ctx.log.warn({ err: error }, 'could not record an agent client’s use'),
    });
    ctx.need('abilityBearer').check = bearer;
    registerMcpRoutes(ctx.api, registry, auth, bearer);
    registerAgentClientRoutes(ctx.api, clients, new RequestSources(ctx.store.appPasswords, ctx.clock));
    if (auth) {
      for (const page of metadataPages(ctx.api, auth)) {
        ctx.addPage({
          method: 'GET',
          path: page.path,
          handle: async () => jsonPage(200, page.body, { 'Access-Control-Allow-Origin': '*' }),
        });
      }
    }
  },
};
