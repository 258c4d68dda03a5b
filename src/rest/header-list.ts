/**
 * Response headers as a flat `[name, value, name, value, …]` list, the form node:http's
 * `writeHead` takes as is. Cheaper per request than an object (whose hidden classes V8 kept
 * rebuilding) or a Map (built and then copied into a list): a response has about a dozen
 * headers, so a linear scan for a name is less work than hashing it.
 */
export type HeaderList = string[];

/** Sets a header, replacing the value of an earlier one with the same name (names compare exactly). */
export function setHeader(list: HeaderList, name: string, value: string): void {
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === name) {
      list[i + 1] = value;
      return;
    }
  }
  list.push(name, value);
}

/** Sets every header of `record`, in its key order. */
export function setHeaders(list: HeaderList, record: Readonly<Record<string, string>>): void {
  for (const name in record) setHeader(list, name, record[name]!);
}
