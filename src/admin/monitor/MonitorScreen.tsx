/**
 * The Monitor screen: each check with its state, uptime over 24 h / 7 d / 30 d / 365 d and
 * certificate; the response-time chart and downtimes of the chosen check; the checks, the
 * maintenance windows and who is notified, each editable; a test notification. One file per card.
 */
import { Card, CardBody } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { useInvalidate, useRest } from '../data/use-rest';
import { useConnection, useModules } from '../site';
import type { MonitorOverview } from '../types';
import { dateTime } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { UnavailableReason } from '../UnavailableReason';
import { AddCheckCard } from './AddCheckCard';
import { CheckCard } from './CheckCard';
import { HistoryCard } from './HistoryCard';
import { MaintenanceCard } from './MaintenanceCard';
import { NotificationsCard } from './NotificationsCard';
import { M } from './paths';

export function MonitorScreen() {
  const { modules } = useModules();
  const { connection } = useConnection();
  const on = modules.monitor?.activated === true;
  const overview = useRest<MonitorOverview>(on ? M : null);
  const invalidate = useInvalidate();
  const changed = () => invalidate(M);
  const [selected, setSelected] = useState(1);
  // Said as At a Glance and Modules say it: a switch that cannot work is not offered.
  if (modules.monitor !== undefined && !modules.monitor.available) {
    return (
      <Card className="sw-card">
        <CardBody size="small">
          <UnavailableReason mod={modules.monitor} offline={connection.devMode.isActive} />
        </CardBody>
      </Card>
    );
  }
  if (!on) {
    return (
      <Card className="sw-card">
        <CardBody size="small">
          <p data-testid="monitor-off">
            {__('Monitor is off.', 'siteward')} <a href="#/modules/monitor">{__('Turn it on', 'siteward')}</a>{' '}
            {__('to check the site and keep its history.', 'siteward')}
          </p>
        </CardBody>
      </Card>
    );
  }
  return (
    <Loaded load={overview} loading={__('Loading the monitor…', 'siteward')}>
      {(data) => <Checks data={data} selected={selected} onSelect={setSelected} onChanged={changed} />}
    </Loaded>
  );
}

function Checks({
  data,
  selected,
  onSelect,
  onChanged,
}: {
  data: MonitorOverview;
  selected: number;
  onSelect: (id: number) => void;
  onChanged: () => void;
}) {
  return (
    <div className="sw-stack sw-monitor-screen" data-testid="monitor-screen">
      {data.maintenance.current && (
        <p className="sw-monitor-maintenance" role="status">
          {/* translators: %s: date and time. */}
          {sprintf(
            __('Maintenance until %s: checks run, downtime is not counted and nobody is notified.', 'siteward'),
            dateTime(data.maintenance.current.until),
          )}
        </p>
      )}
      <div className="sw-monitor-checks">
        {data.checks.map((check) => (
          <CheckCard
            key={check.id}
            check={check}
            selected={selected === check.id}
            onSelect={() => onSelect(check.id)}
            onChanged={onChanged}
          />
        ))}
      </div>
      <HistoryCard checkId={selected} url={data.checks.find((c) => c.id === selected)?.url ?? ''} />
      <div className="sw-monitor-settings">
        <AddCheckCard count={data.checks.length} onAdded={onChanged} />
        <MaintenanceCard windows={data.maintenance.windows} timeZone={data.timeZone} onChanged={onChanged} />
        <NotificationsCard settings={data.notifications} admins={data.administrators} />
      </div>
    </div>
  );
}
