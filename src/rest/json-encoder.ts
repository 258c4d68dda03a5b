/**
 * Response bodies as JSON text. Speed: handlers that return the same frozen object while their
 * data is unchanged (a cached module list, the documents of documents.ts) get its encoded bytes
 * reused instead of re-encoded.
 */
/**
 * Data whose JSON text a handler already has (the audit list, built from the stored JSON of its
 * events): the encoder writes `text` as it is. Whatever reads the data itself (`_fields`) gets
 * `toJSON()`, and JSON.stringify calls it too (`_envelope`, batch), so those answers are the bytes
 * of the value as before. `text` must be exactly JSON.stringify of that value.
 */
export class EncodedJson {
  constructor(
    readonly text: string,
    private readonly value: () => unknown,
  ) {}

  toJSON(): unknown {
    return this.value();
  }
}

export class JsonEncoder {
  private readonly encoded = new WeakMap<object, Buffer>();

  /** The JSON text of `data` (`null` for undefined); throws what JSON.stringify throws. */
  encode(data: unknown): string | Buffer {
    if (data === undefined) return 'null';
    if (data === null || typeof data !== 'object') return JSON.stringify(data);
    if (data instanceof EncodedJson) return data.text;
    // Speed: the cache is asked first; isFrozen checks every property (module/all has 40+).
    const cached = this.encoded.get(data);
    if (cached !== undefined) return cached;
    if (!Object.isFrozen(data)) return JSON.stringify(data);
    const bytes = Buffer.from(JSON.stringify(data), 'utf8');
    this.encoded.set(data, bytes);
    return bytes;
  }
}
