/** A check's response times as a line, failed checks as red bars. */
import { __, _n, sprintf } from '@wordpress/i18n';
import type { MonitorCheckHistory } from '../types';

export function ResponseChart({ points }: { points: MonitorCheckHistory['points'] }) {
  const width = 600;
  const height = 120;
  const measured = points.filter((p) => p.ms !== null);
  if (measured.length === 0) return <p data-testid="monitor-chart">{__('No response times in this period yet.', 'siteward')}</p>;
  const max = Math.max(1, ...measured.map((p) => p.ms ?? 0));
  const t0 = Date.parse(points[0]!.at);
  const t1 = Math.max(t0 + 1, Date.parse(points[points.length - 1]!.at));
  const x = (at: string) => ((Date.parse(at) - t0) / (t1 - t0)) * width;
  const y = (ms: number) => height - (ms / max) * (height - 6);
  const line = measured.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.at).toFixed(1)},${y(p.ms ?? 0).toFixed(1)}`).join(' ');
  const average = Math.round(measured.reduce((s, p) => s + (p.ms ?? 0), 0) / measured.length);
  const failed = points.reduce((n, p) => n + p.down, 0);
  return (
    <figure className="sw-chart">
      {/* translators: 1: average milliseconds, 2: highest milliseconds. */}
      <figcaption className="sw-chart-caption">{sprintf(__('Average %1$d ms · highest %2$d ms', 'siteward'), average, max)}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height + 4}`}
        role="img"
        // translators: 1: average milliseconds, 2: highest milliseconds, 3: how many checks failed.
        aria-label={sprintf(
          _n(
            'Response time: average %1$d ms, highest %2$d ms, %3$d failed check',
            'Response time: average %1$d ms, highest %2$d ms, %3$d failed checks',
            failed,
            'siteward',
          ),
          average,
          max,
          failed,
        )}
        data-testid="monitor-chart"
      >
        <line x1="0" y1={height} x2={width} y2={height} className="sw-chart-axis" />
        {points
          .filter((p) => p.down > 0)
          .map((p) => (
            <rect key={p.at} x={Math.min(width - 3, x(p.at))} y="0" width="3" height={height} className="sw-chart-down" />
          ))}
        <path d={line} className="sw-chart-line" fill="none" />
      </svg>
    </figure>
  );
}
