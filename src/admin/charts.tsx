/** Two small charts in plain SVG: blocked attempts per day (bars) and down intervals (timeline). */
import { __, _n, sprintf } from '@wordpress/i18n';

const fmtDay = (date: string) => new Date(`${date}T00:00:00`).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

export function BarChart({ points, label }: { points: { date: string; count: number }[]; label: string }) {
  const width = 300;
  const height = 90;
  const max = Math.max(1, ...points.map((p) => p.count));
  const step = width / Math.max(1, points.length);
  const total = points.reduce((sum, p) => sum + p.count, 0);
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <figure className="sw-chart">
      {/* translators: 1: the chart's label, 2: the highest count of a day. */}
      <figcaption className="sw-chart-caption">
        {sprintf(__('%1$s · most in a day: %2$d', 'siteward'), label, total === 0 ? 0 : max)}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height + 16}`}
        role="img"
        // translators: 1: the chart's label, 2: the total, 3: how many days, 4: the highest count of a day.
        aria-label={sprintf(
          _n('%1$s: %2$d in %3$d day, at most %4$d in a day', '%1$s: %2$d in %3$d days, at most %4$d in a day', points.length, 'siteward'),
          label,
          total,
          points.length,
          max === 1 && total === 0 ? 0 : max,
        )}
        data-testid="protect-chart"
      >
        <line x1="0" y1={height} x2={width} y2={height} className="sw-chart-axis" />
        {points.map((p, i) => {
          const h = p.count === 0 ? 0 : Math.max(2, (p.count / max) * (height - 4));
          return (
            <rect
              key={p.date}
              x={i * step + 1}
              y={height - h}
              width={Math.max(1, step - 2)}
              height={h}
              className="sw-chart-bar"
              data-count={p.count}
            >
              <title>{`${fmtDay(p.date)}: ${p.count}`}</title>
            </rect>
          );
        })}
        {first && (
          <text x="0" y={height + 13} className="sw-chart-label">
            {fmtDay(first.date)}
          </text>
        )}
        {last && (
          <text x={width} y={height + 13} textAnchor="end" className="sw-chart-label">
            {fmtDay(last.date)}
          </text>
        )}
      </svg>
    </figure>
  );
}

/**
 * Green where the site was watched and up, red where it was down, grey where there is no data:
 * before monitoring started (`monitoredSince`) and while no host of Siteward checked (`noData`).
 */
export function Timeline({
  intervals,
  noData = [],
  monitoredSince = null,
  days,
  now = Date.now(),
}: {
  intervals: readonly { start: string; end: string | null }[];
  noData?: readonly { start: string; end: string }[];
  monitoredSince?: string | null;
  days: number;
  now?: number;
}) {
  const width = 300;
  const height = 28;
  const from = now - days * 86_400_000;
  const x = (t: number) => ((Math.min(now, Math.max(from, t)) - from) / (now - from)) * width;
  const down = intervals.map((i) => ({ a: x(Date.parse(i.start)), b: x(i.end === null ? now : Date.parse(i.end)), open: i.end === null }));
  // Nothing watched yet: the whole bar is "no data".
  const watchedFrom = monitoredSince === null ? width : x(Date.parse(monitoredSince));
  const grey = [
    ...(watchedFrom > 0 ? [{ a: 0, b: watchedFrom }] : []),
    ...noData.map((g) => ({ a: x(Date.parse(g.start)), b: x(Date.parse(g.end)) })).filter((g) => g.b > g.a),
  ];
  return (
    <figure className="sw-chart">
      <svg
        viewBox={`0 0 ${width} ${height + 16}`}
        role="img"
        aria-label={
          grey.length === 0
            ? sprintf(
                // translators: 1: how many days, 2: how many down intervals.
                _n(
                  'Downtime over the last %1$d days: %2$d interval',
                  'Downtime over the last %1$d days: %2$d intervals',
                  intervals.length,
                  'siteward',
                ),
                days,
                intervals.length,
              )
            : sprintf(
                // translators: 1: how many days, 2: how many down intervals.
                _n(
                  'Downtime over the last %1$d days: %2$d interval; grey: no data (not monitored)',
                  'Downtime over the last %1$d days: %2$d intervals; grey: no data (not monitored)',
                  intervals.length,
                  'siteward',
                ),
                days,
                intervals.length,
              )
        }
        data-testid="monitor-timeline"
      >
        <rect x="0" y="4" width={width} height={height - 8} className="sw-chart-up" />
        {grey.map((g, i) => (
          <rect key={`g${i}`} x={g.a} y="4" width={g.b - g.a} height={height - 8} className="sw-chart-nodata" data-nodata="1" />
        ))}
        {down.map((d, i) => {
          // At least 3 units wide so seconds of downtime in 30 days stay visible, and kept inside the chart at "now".
          const w = Math.max(3, d.b - d.a);
          return (
            <rect
              key={i}
              x={Math.min(d.a, width - w)}
              y="0"
              width={w}
              height={height}
              className="sw-chart-down"
              data-open={d.open ? '1' : '0'}
            />
          );
        })}
        <text x="0" y={height + 13} className="sw-chart-label">
          {/* translators: %d: how many days. */}
          {sprintf(_n('%d day ago', '%d days ago', days, 'siteward'), days)}
        </text>
        <text x={width} y={height + 13} textAnchor="end" className="sw-chart-label">
          {__('now', 'siteward')}
        </text>
      </svg>
      {grey.length > 0 && <figcaption className="sw-chart-caption">{__('Grey: no data (not monitored then).', 'siteward')}</figcaption>}
    </figure>
  );
}
