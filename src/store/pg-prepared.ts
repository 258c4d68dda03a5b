/**
 * Names for the parameterized SQL texts of a pool, so each connection parses and plans a
 * statement once and then only binds and executes it (speed: a toggle runs the same handful of
 * statements every time, and PostgreSQL spent a good part of each one's CPU on parse and plan).
 *
 * Bounded: the first `max` distinct texts get a name, later ones run unnamed as before, so a
 * caller building ever new texts cannot grow every backend's memory without end.
 *
 * A text with `*` (`select *`, `returning *`) is never prepared: a prepared statement whose
 * result columns change fails with "cached plan must not change result type", which is what an
 * additive migration run by a newer host would do to this process's statements during a
 * rolling upgrade. Statements naming their columns are not affected by added columns.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** The name of `text`'s prepared statement, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max && !text.includes('*')) {
      name = `sw_${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }
}
