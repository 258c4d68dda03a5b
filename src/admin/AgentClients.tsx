/**
 * The agent clients (MCP clients signed in through OAuth, issue 42 item 6) beside the Connection
 * card: which client, for which user, first and last use, and revoking one. Administrators only;
 * nothing at all on a server without the route (an older server).
 */
import { Button } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api, ApiError, toApiError } from './api';
import { ConfirmDialog } from './ConfirmDialog';
import { useInvalidate, useRest } from './data/use-rest';
import { GlanceCard } from './GlanceCard';
import { useConnection, useNotify } from './site';
import { dateTime } from './ui/format';
import { isMissingRoute, Loaded } from './ui/Loaded';
import type { AgentClientRow } from '../wire/siteward-v1';

/** `GET siteward/v1/agent-clients`: one row per OAuth client that called the MCP server. */
export type AgentClient = AgentClientRow;

export const AGENT_CLIENTS = '/siteward/v1/agent-clients';

const nameOf = (c: AgentClient) => c.client_name ?? c.client_id;

function ClientRow({ client, onRevoke }: { client: AgentClient; onRevoke: (client: AgentClient) => void }) {
  return (
    <li className="sw-protect-row" data-testid="agent-client">
      <div className="sw-protect-head">
        <strong className="sw-break">{nameOf(client)}</strong>
        {client.revoked ? (
          <span className="sw-badge sw-badge-down">{__('Revoked', 'siteward')}</span>
        ) : (
          <Button variant="secondary" size="compact" isDestructive className="sw-protect-unblock" onClick={() => onRevoke(client)}>
            {__('Revoke', 'siteward')}
            <span className="sw-visually-hidden"> {nameOf(client)}</span>
          </Button>
        )}
      </div>
      <dl className="sw-protect-facts">
        <dt>{__('Client id', 'siteward')}</dt>
        <dd>
          <code className="sw-break">{client.client_id}</code>
        </dd>
        <dt>{__('Acts as', 'siteward')}</dt>
        <dd className="sw-break">{client.user_login}</dd>
        <dt>{__('Last used', 'siteward')}</dt>
        <dd>{dateTime(client.last_used)}</dd>
        <dt>{__('First used', 'siteward')}</dt>
        <dd>{dateTime(client.first_used)}</dd>
      </dl>
    </li>
  );
}

export function AgentClientsCard() {
  const { user } = useConnection();
  const { notify } = useNotify();
  const invalidate = useInvalidate();
  const isAdmin = user.currentUser.permissions.manage_options !== false;
  const clients = useRest<AgentClient[]>(isAdmin ? AGENT_CLIENTS : null);
  const [confirm, setConfirm] = useState<AgentClient | null>(null);
  const [busy, setBusy] = useState(false);
  if (!isAdmin || (clients.state === 'error' && isMissingRoute(clients.error))) return null;

  const revoke = async (client: AgentClient) => {
    setBusy(true);
    try {
      await api(`${AGENT_CLIENTS}/${encodeURIComponent(client.client_id)}`, { method: 'DELETE' });
      // translators: %s: an agent client's name.
      notify({ status: 'success', text: sprintf(__('%s is revoked.', 'siteward'), nameOf(client)) });
    } catch (raw) {
      const error = raw instanceof ApiError ? raw : toApiError(raw);
      notify({
        status: 'error',
        text:
          error.code === 'siteward_agent_client_not_found'
            ? // translators: %s: an agent client's name.
              sprintf(__('%s is no longer known to this site: the list is read again.', 'siteward'), nameOf(client))
            : // translators: %s: why the server refused.
              sprintf(__('The client was not revoked: %s', 'siteward'), error.message),
      });
    } finally {
      setBusy(false);
      setConfirm(null);
      invalidate(AGENT_CLIENTS);
    }
  };

  return (
    <GlanceCard title={__('Agent clients', 'siteward')} id="agent-clients">
      <Loaded load={clients} loading={__('Loading agent clients…', 'siteward')}>
        {(list) =>
          list.length === 0 ? (
            <p className="sw-muted" data-testid="agent-clients-none">
              {__('No agent has signed in yet. MCP clients that sign in through the account service are listed here.', 'siteward')}
            </p>
          ) : (
            <ul className="sw-protect-list" data-testid="agent-clients">
              {list.map((c) => (
                <ClientRow key={c.client_id} client={c} onRevoke={setConfirm} />
              ))}
            </ul>
          )
        }
      </Loaded>
      {confirm && (
        <ConfirmDialog
          // translators: %s: an agent client's name.
          title={sprintf(__('Revoke %s?', 'siteward'), nameOf(confirm))}
          confirmLabel={__('Revoke', 'siteward')}
          destructive
          busy={busy}
          onConfirm={() => void revoke(confirm)}
          onCancel={() => setConfirm(null)}
        >
          <p>
            {/* translators: %s: a username. */}
            {sprintf(
              __(
                'The agent can no longer act as %s on this site with the tokens it holds. To come back it must be authorized again.',
                'siteward',
              ),
              confirm.user_login,
            )}
          </p>
        </ConfirmDialog>
      )}
    </GlanceCard>
  );
}
