/** The chosen check's response times and downtimes over a period. */
import { Card, CardBody, CardHeader, SelectControl } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';
import { useState } from 'react';
import { Timeline } from '../charts';
import { useRest } from '../data/use-rest';
import type { MonitorCheckHistory } from '../types';
import { dateTime, duration, humanTimes } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { M } from './paths';
import { ResponseChart } from './ResponseChart';

export function HistoryCard({ checkId, url }: { checkId: number; url: string }) {
  const [days, setDays] = useState<'1' | '7' | '30' | '365'>('1');
  const history = useRest<MonitorCheckHistory>(addQueryArgs(`${M}/checks/${checkId}/history`, { days }));
  return (
    <Card className="sw-card sw-monitor-history">
      <CardHeader size="small">
        {/* translators: %s: a URL. */}
        <h2 className="sw-card-title sw-monitor-url">{sprintf(__('Response time · %s', 'siteward'), url)}</h2>
        <SelectControl
          __nextHasNoMarginBottom
          __next40pxDefaultSize
          label={__('Period', 'siteward')}
          hideLabelFromVision
          value={days}
          options={[
            { label: __('Last 24 hours', 'siteward'), value: '1' },
            { label: __('Last 7 days', 'siteward'), value: '7' },
            { label: __('Last 30 days', 'siteward'), value: '30' },
            { label: __('Last 365 days', 'siteward'), value: '365' },
          ]}
          onChange={(v) => setDays(v)}
        />
      </CardHeader>
      <CardBody size="small">
        <Loaded load={history} loading={__('Loading…', 'siteward')}>
          {(data) => (
            <>
              <ResponseChart points={data.points} />
              <Timeline intervals={data.downtimes} noData={data.noData} monitoredSince={data.monitoredSince} days={Number(days)} />
              <h3 className="sw-subtitle">{__('Downtimes', 'siteward')}</h3>
              {data.downtimes.length === 0 ? (
                <p data-testid="monitor-downtimes">{__('No downtime in this period.', 'siteward')}</p>
              ) : (
                <ul className="sw-facts" data-testid="monitor-downtimes">
                  {data.downtimes.map((d) => (
                    <li key={d.start}>
                      {sprintf(
                        d.end === null
                          ? // translators: 1: when it went down, 2: for how long so far, 3: why.
                            __('%1$s · %2$s (still down) · %3$s', 'siteward')
                          : // translators: 1: when it went down, 2: for how long, 3: why.
                            __('%1$s · %2$s · %3$s', 'siteward'),
                        dateTime(d.start),
                        duration(d.duration),
                        humanTimes(d.reason),
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </Loaded>
      </CardBody>
    </Card>
  );
}
