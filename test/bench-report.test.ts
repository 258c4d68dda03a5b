// The bench's judgement (bench/report.js): which rows issue 44's targets read, how the
// alternated comparisons decide, and the one line that says whether every target passed.
import { beforeAll, describe, expect, it } from 'vitest';

interface Row {
  name: string;
  group: string;
  reqPerSec: number;
  p99: number;
  cpuUsPerReq: number;
  hwmMB: number;
  errors: number;
  otherCores: number;
  expectedPerSec?: number;
  ratio?: number | null;
  p99Ratio?: number | null;
  cpuRatio?: number | null;
  ratios?: number[];
  rounds?: FloorRound[];
}
/** One alternated round of a row and its identical-bytes floor (run.js againstFloor). */
interface FloorRound {
  reqPerSec: number;
  p99: number;
  cpuUsPerReq: number;
  floorReqPerSec: number;
  floorP99: number;
  floorCpuUsPerReq: number;
}
interface Target {
  name: string;
  value: number | null;
  status: 'PASS' | 'FAIL' | 'N/A' | 'INFO';
  ci?: [number, number];
  info?: boolean;
}
type Side = { reqPerSec: number; cpuUsPerReq: number; otherCores: number; errors: number };
type Alternated = Record<string, { seconds: number; rounds: Record<string, Side>[] }>;
interface ReportModule {
  withRatios(row: Omit<Row, 'ratio' | 'p99Ratio'>, floor: Partial<Row> | null): Row;
  comparisons(rows: Row[], alternated: Alternated): Record<string, unknown>;
  targets(rows: Row[], cmp: Record<string, unknown>, options?: { baselineSkipped?: string | null }): Target[];
  verdict(targets: Pick<Target, 'name' | 'status' | 'info'>[]): string;
  medianInterval(xs: number[]): [number, number] | null;
}

// The bench is plain JavaScript outside the typed build: load it through a path string.
let report: ReportModule;
beforeAll(async () => {
  report = (await import(new URL('../bench/report.js', import.meta.url).href)) as ReportModule;
});

const row = (name: string, group: string, ratio: number, extra: Partial<Row> = {}): Row =>
  report.withRatios(
    { name, group, reqPerSec: 1000 * ratio, p99: 10, cpuUsPerReq: 20, hwmMB: 100, errors: 0, otherCores: 0, ...extra },
    { reqPerSec: 1000, p99: 10, cpuUsPerReq: 18, errors: 0, otherCores: 0 },
  );
const side = (cpuUsPerReq: number): Side => ({ reqPerSec: 1000, cpuUsPerReq, otherCores: 0, errors: 0 });
const find = (ts: Target[], start: string): Target => {
  const t = ts.find((x) => x.name.startsWith(start));
  if (!t) throw new Error(`no target starting with ${start}`);
  return t;
};

describe('bench report (issue 44 targets)', () => {
  it('judges every ratio row at 0.90 of its floor and the 400 without repeats at 0.60', () => {
    const rows = [
      row('GET settings', 'main', 0.89),
      row('GET module/all', 'main', 0.9),
      row('POST active → 400, no repeats', 'main', 0.61),
    ];
    const ts = report.targets(rows, report.comparisons(rows, {}));
    expect(find(ts, 'GET settings:').status).toBe('FAIL');
    expect(find(ts, 'GET module/all:').status).toBe('PASS');
    expect(find(ts, 'POST active → 400, no repeats:').status).toBe('PASS');
  });

  it('judges a row loaded in alternated rounds with its floor on the medians of the per-round ratios, with an interval', () => {
    const round = (ours: number, floor: number, p99: number): FloorRound => ({
      reqPerSec: ours,
      p99,
      cpuUsPerReq: 1e6 / ours,
      floorReqPerSec: floor,
      floorP99: 4,
      floorCpuUsPerReq: 1e6 / floor,
    });
    // The row's own figures (one round's) would say ×0.50; the rounds say ×0.86, ×0.91, ×0.93, ×0.95.
    const rounds = [round(860, 1000, 5), round(500, 1000, 8), round(950, 1000, 4.4), round(930, 1000, 4.8)].map((r, i) =>
      i === 1 ? { ...r, floorReqPerSec: 549.45, floorCpuUsPerReq: 1e6 / 549.45 } : r,
    );
    const judged = report.withRatios(
      { name: 'GET settings', group: 'main', reqPerSec: 500, p99: 8, cpuUsPerReq: 2000, hwmMB: 100, errors: 0, otherCores: 0, rounds },
      { reqPerSec: 1000, p99: 4, cpuUsPerReq: 1000, errors: 0, otherCores: 0 },
    );
    expect(judged.ratio).toBeCloseTo(0.92, 5);
    expect(judged.ratios?.map((r) => Number(r.toFixed(2)))).toEqual([0.86, 0.91, 0.95, 0.93]);
    expect(judged.p99Ratio).toBeCloseTo(1.225, 5); // median of 1.25, 2, 1.1, 1.2
    expect(judged.cpuRatio).toBeCloseTo(0.92, 5);
    const settings = find(report.targets([judged], report.comparisons([judged], {})), 'GET settings:');
    expect(settings.status).toBe('PASS');
    expect(settings.ci).toEqual(report.medianInterval(judged.ratios!)!.map((v) => Number(v.toFixed(3))));
  });

  it('judges the p99 of the batch and user-update rows on a line of their own', () => {
    const rows = [row('GET settings', 'main', 1), row('POST batch/v1 of 10 user updates', 'batch', 1, { p99: 13 })];
    const ts = report.targets(rows, report.comparisons(rows, {}));
    expect(find(ts, "p99 ≤ 1.25 × identical-bytes floor's p99, the ratio rows").status).toBe('PASS');
    const batch = find(ts, "p99 ≤ 1.25 × identical-bytes floor's p99, batch/v1");
    expect(batch.status).toBe('FAIL');
    expect(batch.value).toBe(1.3);
  });

  it('keeps the abilities server out of the peak RSS target and reports it beside', () => {
    const rows = [
      row('GET settings', 'main', 1, { hwmMB: 104 }),
      row('POST MCP tools/call list-modules (Basic)', 'abilities', 1, { hwmMB: 130 }),
    ];
    const ts = report.targets(rows, report.comparisons(rows, {}));
    expect(find(ts, 'peak RSS (VmHWM) ≤ 110 MB').value).toBe(104);
    expect(find(ts, 'peak RSS (VmHWM) ≤ 110 MB').status).toBe('PASS');
    expect(find(ts, 'peak RSS (VmHWM) of the abilities/MCP server').status).toBe('INFO');
  });

  it('judges the ability and the toggle baseline on the median CPU ratio of alternated rounds, with an interval', () => {
    const rounds = (a: string, b: string, ratios: number[]) => ({
      seconds: 2,
      rounds: ratios.map((r) => ({ [a]: side(100), [b]: side(100 * r) })),
    });
    const alternated = {
      abilityVsRoute: rounds('route', 'ability', [1.05, 1.2, 1.0, 1.08, 1.09, 1.3]),
      toggleBaseline: rounds('baseline', 'this', [1.1, 1.2, 1.3, 1.25, 1.18, 1.22]),
    };
    const ts = report.targets([], report.comparisons([], alternated));
    const ability = find(ts, 'readonly ability run over REST');
    expect(ability.value).toBeCloseTo(1.085, 3);
    expect(ability.status).toBe('PASS');
    expect(ability.ci?.[0]).toBeLessThanOrEqual(1.085);
    expect(ability.ci?.[1]).toBeGreaterThanOrEqual(1.085);
    expect(find(ts, 'durable toggle with its audit event').status).toBe('FAIL');
  });

  it('says the toggle baseline is not measured, and how to set it, without SITEWARD_BENCH_BASELINE', () => {
    const ts = report.targets([], report.comparisons([], {}), { baselineSkipped: 'not measured: set SITEWARD_BENCH_BASELINE=<dir>' });
    const t = find(ts, 'durable toggle with its audit event');
    expect(t.status).toBe('N/A');
    expect(t.name).toContain('SITEWARD_BENCH_BASELINE');
  });

  it('prints PASS for every target only when nothing failed or went unmeasured, INFO lines aside', () => {
    const pass = { name: 'a: x', status: 'PASS' as const };
    const info = { name: 'b: y', status: 'N/A' as const, info: true };
    expect(report.verdict([pass, info])).toBe('RESULT: PASS for every target (1 of 1)');
    const out = report.verdict([pass, { name: 'c (d: e): f', status: 'FAIL' }, { name: 'g: h', status: 'N/A' }]);
    expect(out).toContain('NOT every target passes: 1 PASS, 1 FAIL, 1 N/A of 3');
    expect(out).toContain('FAIL: c (d: e)');
    expect(out).toContain('N/A: g');
  });

  it('gives the same interval of the median for the same rounds', () => {
    const xs = [0.98, 1.04, 1.01, 0.95, 1.12, 1.0, 0.97, 1.03];
    const ci = report.medianInterval(xs);
    expect(ci).toEqual(report.medianInterval(xs));
    expect(ci?.[0]).toBeLessThanOrEqual(1.005);
    expect(ci?.[1]).toBeGreaterThanOrEqual(1.005);
    expect(report.medianInterval([1])).toBeNull();
  });
});
