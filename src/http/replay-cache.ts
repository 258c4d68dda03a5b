import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { HeaderList } from '../rest/header-list.js';
import type { ReplayStamp } from '../rest/replay.js';

/** What the answers kept for repeats may take in all (bodies, headers and keys), per process. */
export const REPLAY_CACHE_BYTES = 4 * 1024 * 1024;
/** At most this many answers are kept (each distinct request line and header block is one). */
export const REPLAY_CACHE_ENTRIES = 256;
/** Bytes counted per answer besides its strings and body (the entry, the map slot, the header list). */
const ENTRY_OVERHEAD_BYTES = 256;

/** An answer kept for byte-identical repeats of its request. */
export interface ReplayEntry {
  readonly status: number;
  /** The headers as sent, Content-Length included. */
  readonly headers: HeaderList;
  readonly body: Buffer;
  readonly stamp: ReplayStamp;
  readonly bytes: number;
}

/**
 * The REST answers kept for byte-identical repeats of their requests (src/rest/replay.ts),
 * bounded in entries and bytes; the oldest goes first. Whether a kept answer may still be given
 * is the REST layer's call (`RestServer.replayable`), asked on every repeat.
 */
export class ReplayCache {
  private readonly entries = new Map<string, ReplayEntry>();
  private total = 0;

  constructor(
    private readonly maxBytes = REPLAY_CACHE_BYTES,
    private readonly maxEntries = REPLAY_CACHE_ENTRIES,
  ) {}

  /**
   * The key of a request whose answer may be kept: every byte of its request line and header
   * block, and whether it came over TLS. Undefined for anything but GET and OPTIONS, and for a
   * request that may carry a body (its bytes are not in the key).
   */
  static keyOf(req: IncomingMessage): string | undefined {
    const method = req.method;
    if (method !== 'GET' && method !== 'OPTIONS') return undefined;
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') return undefined;
      if (name.length === 14 && raw[i + 1] !== '0' && name.toLowerCase() === 'content-length') return undefined;
    }
    // Names and values alternate, and neither holds a line break (node's parser refuses them):
    // the joined text is unambiguous. Speed: one join, a flat string, hashed once by the map.
    return `${method} ${req.url ?? ''} ${(req.socket as TLSSocket | null)?.encrypted === true ? 's' : ''}\n${raw.join('\n')}`;
  }

  get(key: string): ReplayEntry | undefined {
    return this.entries.get(key);
  }

  /** Keeps an answer (a larger one than an eighth of the budget is not kept). */
  set(key: string, status: number, headers: HeaderList, body: Buffer, stamp: ReplayStamp): void {
    let bytes = ENTRY_OVERHEAD_BYTES + key.length * 2 + body.length;
    for (const h of headers) bytes += h.length * 2;
    // A larger answer than an eighth of the budget is not kept: a few would push out every other.
    if (bytes > this.maxBytes / 8) return;
    this.delete(key);
    while (this.entries.size > 0 && (this.total + bytes > this.maxBytes || this.entries.size >= this.maxEntries)) {
      this.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { status, headers, body, stamp, bytes });
    this.total += bytes;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  /** How many answers are kept, and the bytes counted for them. */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.total };
  }
}
