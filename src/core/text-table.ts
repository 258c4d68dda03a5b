/**
 * The CLI's tables (`user list`, `app-password list`, `backup list`, `routes`): a header row and
 * aligned columns two spaces apart, for a person at a terminal (scripts use `--format json`).
 */

export interface TextTableOptions {
  /** Indexes of the columns aligned right (numbers). */
  readonly right?: readonly number[];
  /** Put before every line (a table under a heading). */
  readonly indent?: string;
}

/**
 * The lines of the table; no line ends in spaces (the last column is not padded).
 *
 * @example
 * textTable(['ID', 'LOGIN'], [['1', 'admin'], ['12', 'ann']])
 * // ['ID  LOGIN', '1   admin', '12  ann']
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], options: TextTableOptions = {}): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const last = header.length - 1;
  const line = (cells: readonly string[]) =>
    (options.indent ?? '') +
    header
      .map((_, i) => {
        const cell = cells[i] ?? '';
        if (options.right?.includes(i)) return cell.padStart(widths[i]!);
        return i === last ? cell : cell.padEnd(widths[i]!);
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
