/**
 * The cells of one line of a CLI table, read at the columns of its header's `titles` (each from
 * where its title starts to where the next one starts): a cell that is not under its title
 * reads wrong, so this also proves the columns are aligned. Left-aligned columns only.
 */
export function cellsUnder(header: string, line: string, titles: readonly string[]): string[] {
  const starts: { title: string; at: number }[] = [];
  for (const match of header.matchAll(/\S+(?: \S+)*/g)) starts.push({ title: match[0], at: match.index });
  return titles.map((title) => {
    const i = starts.findIndex((s) => s.title === title);
    if (i < 0) throw new Error(`no column ${title} in ${JSON.stringify(header)}`);
    return line.slice(starts[i]!.at, starts[i + 1]?.at).trim();
  });
}
