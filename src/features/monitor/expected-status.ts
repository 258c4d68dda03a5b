/**
 * The statuses a check accepts, written as operators write them: `200`, `2xx`, `200-299`,
 * comma-separated. Empty means 2xx and 3xx (a redirect is an answer).
 */
export type StatusRange = readonly [number, number];

export const DEFAULT_EXPECTED_STATUS = '2xx,3xx';

/** The ranges of `text`, or null when a part is not a status, a class or a range. */
export function parseExpectedStatus(text: string): StatusRange[] | null {
  const source = text.trim() === '' ? DEFAULT_EXPECTED_STATUS : text;
  const ranges: StatusRange[] = [];
  for (const raw of source.split(',')) {
    const part = raw.trim().toLowerCase();
    let match: RegExpExecArray | null;
    if ((match = /^([1-5])xx$/.exec(part))) {
      const base = Number(match[1]) * 100;
      ranges.push([base, base + 99]);
    } else if ((match = /^([1-5]\d\d)(?:-([1-5]\d\d))?$/.exec(part))) {
      const from = Number(match[1]);
      const to = match[2] === undefined ? from : Number(match[2]);
      if (to < from) return null;
      ranges.push([from, to]);
    } else {
      return null;
    }
  }
  return ranges;
}

export function statusAccepted(ranges: readonly StatusRange[], status: number): boolean {
  return ranges.some(([from, to]) => status >= from && status <= to);
}
