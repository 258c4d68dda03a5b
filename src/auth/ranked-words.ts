/**
 * A ranked word list (rank 1 = most frequent) held as its comma-separated text and two arrays
 * of offsets, without a string or an object key per word. zxcvbn's English and common lists
 * hold about 187,000 words; as the objects zxcvbn builds they cost about 24 MB of heap for the
 * life of the process and about 60 MB at the peak of building them, here about 3.5 MB and
 * nothing more while building (issue 26, docs/performance.md). A lookup is a binary search:
 * about 17 comparisons of a few characters.
 */
export class RankedWords {
  private constructor(
    /** The words in rank order, each followed by a comma but the last. */
    private readonly text: string,
    /** `starts[i]` is where word i (rank i + 1) starts; `starts[n]` is one past the text's end. */
    private readonly starts: Uint32Array,
    /** Word numbers in code-unit order of their words, each word once (its last rank). */
    private readonly sorted: Uint32Array,
    /** The longest word's length, which bounds the substrings worth looking up. */
    readonly maxWordLength: number,
  ) {}

  /**
   * From `text`, the words in rank order separated by commas (as zxcvbn's list files hold
   * them). A word listed twice keeps its later rank, as zxcvbn's object keeps the last
   * assignment.
   */
  static fromCommaList(text: string): RankedWords {
    let count = 1;
    for (let at = text.indexOf(','); at !== -1; at = text.indexOf(',', at + 1)) count++;
    const starts = new Uint32Array(count + 1);
    let maxWordLength = 0;
    let start = 0;
    for (let i = 0; i < count; i++) {
      starts[i] = start;
      const comma = text.indexOf(',', start);
      const end = comma === -1 ? text.length : comma;
      maxWordLength = Math.max(maxWordLength, end - start);
      start = end + 1;
    }
    starts[count] = text.length + 1;
    const words = new RankedWords(text, starts, new Uint32Array(0), maxWordLength);
    // Ties by word number: of equal words, the last listed comes last and is the one kept.
    const order = new Uint32Array(count).map((_, i) => i).sort((a, b) => words.compareWords(a, b) || a - b);
    let kept = 0;
    for (let k = 0; k < count; k++) {
      if (k + 1 < count && words.compareWords(order[k]!, order[k + 1]!) === 0) continue;
      order[kept++] = order[k]!;
    }
    return new RankedWords(text, starts, order.slice(0, kept), maxWordLength);
  }

  /** How many distinct words the list holds. */
  get size(): number {
    return this.sorted.length;
  }

  /** Bytes held: the text (one byte a character while it is all Latin-1, else two) and the arrays. */
  get byteSize(): number {
    // eslint-disable-next-line no-control-regex -- the Latin-1 range is the point
    const bytesPerChar = /[^\u0000-\u00ff]/.test(this.text) ? 2 : 1;
    return this.text.length * bytesPerChar + this.starts.byteLength + this.sorted.byteLength;
  }

  /** The word's rank, or undefined when it is not in the list. */
  rank(word: string): number | undefined {
    if (word.length > this.maxWordLength) return undefined;
    let low = 0;
    let high = this.sorted.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const i = this.sorted[middle]!;
      const order = this.compareTo(word, i);
      if (order === 0) return i + 1;
      if (order < 0) high = middle - 1;
      else low = middle + 1;
    }
    return undefined;
  }

  /** `word` against word i, by code units, without slicing a copy of either. */
  private compareTo(word: string, i: number): number {
    const start = this.starts[i]!;
    const length = this.starts[i + 1]! - 1 - start;
    const common = Math.min(word.length, length);
    for (let c = 0; c < common; c++) {
      const difference = word.charCodeAt(c) - this.text.charCodeAt(start + c);
      if (difference !== 0) return difference;
    }
    return word.length - length;
  }

  /** Word a against word b, by code units. */
  private compareWords(a: number, b: number): number {
    const startA = this.starts[a]!;
    const startB = this.starts[b]!;
    const lengthA = this.starts[a + 1]! - 1 - startA;
    const lengthB = this.starts[b + 1]! - 1 - startB;
    const common = Math.min(lengthA, lengthB);
    for (let c = 0; c < common; c++) {
      const difference = this.text.charCodeAt(startA + c) - this.text.charCodeAt(startB + c);
      if (difference !== 0) return difference;
    }
    return lengthA - lengthB;
  }
}
