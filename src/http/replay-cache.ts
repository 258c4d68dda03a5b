import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { HeaderList } from '../rest/header-list.js';
import type { ReplayStamp } from '../rest/replay.js';

/** What the answers kept for repeats may take in all (bodies, headers and request heads), per process. */
export const REPLAY_CACHE_BYTES = 4 * 1024 * 1024;
/** At most this many answers are kept (each distinct request line and header block is one). */
export const REPLAY_CACHE_ENTRIES = 256;
/** At most this many answers per request target (e.g. one per user polling the same URL). */
const ENTRIES_PER_TARGET = 16;
/** Bytes counted per answer besides its strings and body (the entry, the list slots, the header list). */
const ENTRY_OVERHEAD_BYTES = 256;
/**
 * The largest request body kept with an answer (a write refused for its arguments): larger
 * ones are not kept, so a request's bytes are compared only when they are few.
 */
export const REPLAY_REQUEST_BODY_BYTES = 4096;

/**
 * How many refused bodies are remembered (as fingerprints) without their answers: a body's answer
 * is kept the second time the body is refused while it is still remembered (see `set`).
 */
export const REPLAY_BODIES_SEEN = 64;

/** No body: one buffer for every request without one. */
const NO_BODY = Buffer.alloc(0);

/**
 * How a request's answer may be kept: under its head alone (no body), under its head and its
 * body (a write with a small declared body, compared once read), or not at all.
 */
export type Keepable = 'head' | 'body' | null;

/** An answer kept for byte-identical repeats of its request. */
export interface ReplayEntry {
  /** The request: its method, target (as it arrived), TLS or not, and raw header names and values in order. */
  readonly method: string;
  readonly target: string;
  readonly tls: boolean;
  readonly rawHeaders: readonly string[];
  /** The request's body (empty when it had none). */
  readonly requestBody: Buffer;
  readonly status: number;
  /** The headers as sent, Content-Length included. */
  readonly headers: HeaderList;
  readonly body: Buffer;
  readonly stamp: ReplayStamp;
  readonly bytes: number;
}

const overTls = (req: IncomingMessage): boolean => (req.socket as TLSSocket | null)?.encrypted === true;

/**
 * Same names and values in the same order (exact bytes: a name's case counts too). `kept` may
 * hold an Authorization value as its hash (`hidden`), which the other's value must hash to.
 */
function sameHeaders(kept: readonly string[], b: readonly string[]): boolean {
  if (kept.length !== b.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const value = kept[i]!;
    if (value !== b[i] && !(value.charCodeAt(0) === 0 && value === hidden(b[i]!))) return false;
  }
  return true;
}

/**
 * A kept request's headers with each Authorization value (an application password, in Basic)
 * replaced by a SHA-256 of it: answers are found again without this process keeping the
 * secret. A NUL first (which no header value can hold) marks it.
 */
function withoutSecrets(raw: string[]): readonly string[] {
  let copy: string[] | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') {
      copy ??= [...raw];
      copy[i + 1] = hidden(raw[i + 1]!);
    }
  }
  return copy ?? raw;
}

/**
 * Whether two request bodies hold the same bytes. Speed: a body never sent twice is compared
 * with every kept body of the same head (up to ENTRIES_PER_TARGET, twice per request: when it is
 * looked up and when its answer is kept); a short one is compared here byte by byte, from the
 * end, where JSON bodies that differ usually do, instead of a native `Buffer.equals` call each
 * (the 400 without repeats, issue 44).
 */
function sameBytes(a: Buffer, b: Buffer): boolean {
  const length = a.length;
  if (length !== b.length) return false;
  if (length > 64) return a.equals(b);
  for (let i = length - 1; i >= 0; i--) if (a[i] !== b[i]) return false;
  return true;
}

/** Two response header lists with the same names and values in the same order. */
function sameList(a: HeaderList, b: HeaderList): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A 32-bit FNV-1a of a request target and body: which refused bodies were seen lately (a collision only keeps an answer). */
function fingerprint(target: string, body: Buffer): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < target.length; i++) h = Math.imul(h ^ target.charCodeAt(i), 0x01000193);
  for (let i = 0; i < body.length; i++) h = Math.imul(h ^ body[i]!, 0x01000193);
  return h >>> 0;
}

const hidden = (value: string): string => `\u0000${createHash('sha256').update(value).digest('base64')}`;

/**
 * The REST answers kept for byte-identical repeats of their requests (src/rest/replay.ts),
 * bounded in entries and bytes; the oldest goes first. A repeat is found by its request target,
 * then compared header by header with the kept ones (speed: no key string is built or hashed per
 * request; a joined key cost about 0.85 µs a lookup, most of the lookup). Whether a kept answer
 * may still be given is the REST layer's call (`RestServer.replayable`), asked on every repeat.
 */
export class ReplayCache {
  private readonly byTarget = new Map<string, ReplayEntry[]>();
  /** Every entry, oldest first (a Set keeps insertion order). */
  private readonly order = new Set<ReplayEntry>();
  private total = 0;
  /** Fingerprints of the last REPLAY_BODIES_SEEN bodies whose answers were not kept, in a ring. */
  private readonly seen = new Uint32Array(REPLAY_BODIES_SEEN);
  private seenNext = 0;

  constructor(
    private readonly maxBytes = REPLAY_CACHE_BYTES,
    private readonly maxEntries = REPLAY_CACHE_ENTRIES,
  ) {}

  /**
   * Whether and how a request's answer may be kept: GET and OPTIONS without a body; POST, PUT,
   * PATCH and DELETE without one or with a declared body of at most REPLAY_REQUEST_BODY_BYTES
   * (a chunked body's length is not known before it is read: never kept).
   */
  static keepable(req: IncomingMessage): Keepable {
    const method = req.method;
    const write = method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
    if (!write && method !== 'GET' && method !== 'OPTIONS') return null;
    const raw = req.rawHeaders;
    let length = '0';
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') return null;
      if (name.length === 14 && name.toLowerCase() === 'content-length') length = raw[i + 1]!;
    }
    if (length === '0') return 'head';
    return write && Number(length) <= REPLAY_REQUEST_BODY_BYTES ? 'body' : null;
  }

  /**
   * The answer kept for a byte-identical request: same method, `target`, TLS, raw headers and
   * body. `sameHead`: an entry `findHead` gave for this request, tried first by its body alone
   * while it is still kept (speed: the headers of a repeated write are compared once).
   */
  find(req: IncomingMessage, target: string, body: Buffer = NO_BODY, sameHead?: ReplayEntry): ReplayEntry | undefined {
    if (sameHead !== undefined && sameBytes(sameHead.requestBody, body) && this.order.has(sameHead)) return sameHead;
    const list = this.byTarget.get(target);
    if (list === undefined) return undefined;
    const tls = overTls(req);
    // Indexed (speed: no array iterator per lookup).
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!;
      // The body first (speed): bodies never repeated differ there, before a dozen header values are compared.
      if (
        entry.method === req.method &&
        entry.tls === tls &&
        sameBytes(entry.requestBody, body) &&
        sameHeaders(entry.rawHeaders, req.rawHeaders)
      )
        return entry;
    }
    return undefined;
  }

  /**
   * A kept answer with a body to a request of this head (method, `target`, TLS and raw headers,
   * Content-Length among them, so its body has the length this request declares), when one is
   * kept; undefined otherwise.
   */
  findHead(req: IncomingMessage, target: string): ReplayEntry | undefined {
    const list = this.byTarget.get(target);
    if (list === undefined) return undefined;
    const tls = overTls(req);
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!;
      if (entry.requestBody.length > 0 && entry.method === req.method && entry.tls === tls && sameHeaders(entry.rawHeaders, req.rawHeaders))
        return entry;
    }
    return undefined;
  }

  /**
   * Keeps the answer to `req` (which arrived for `target` with `requestBody`); one larger than an
   * eighth of the budget is not kept.
   */
  set(
    req: IncomingMessage,
    target: string,
    status: number,
    headers: HeaderList,
    body: Buffer,
    stamp: ReplayStamp,
    requestBody: Buffer = NO_BODY,
  ): void {
    // A write refused for its body is kept from the second time that body comes (the ghost list
    // of 2Q caches): most bad bodies come once (a typo), and keeping each cost its copy, the
    // entry, an eviction and old-space garbage (the 400 without repeats, issue 44). A client
    // repeating one then gets the kept answer from its third try on.
    if (requestBody.length > 0 && !this.seenBefore(fingerprint(target, requestBody))) return;
    // Speed (issue 44): a write refused for bodies that differ (the 400 without repeats) keeps
    // an answer per body, each under the same head and most often with the same answer bytes.
    // The newest kept entry's header lists and body are shared instead of held once per entry:
    // each kept copy outlived a scavenge or two and was promoted (1.5 → 0.5 KB of old space per
    // request, major collections 5–9 → 2–3 per 50k; the worker 56–76 → 51–61 µs of CPU a request).
    const forTarget = this.byTarget.get(target);
    const newest = forTarget === undefined ? undefined : forTarget[forTarget.length - 1];
    const rawHeaders =
      newest !== undefined && sameHeaders(newest.rawHeaders, req.rawHeaders) ? newest.rawHeaders : withoutSecrets(req.rawHeaders);
    if (newest !== undefined) {
      if (sameList(newest.headers, headers)) headers = newest.headers;
      if (sameBytes(newest.body, body)) body = newest.body;
    }
    let bytes = ENTRY_OVERHEAD_BYTES + target.length * 2 + body.length + requestBody.length;
    for (const h of rawHeaders) bytes += h.length * 2;
    for (const h of headers) bytes += h.length * 2;
    // A few large answers would push out every other.
    if (bytes > this.maxBytes / 8) return;
    const old = this.find(req, target, requestBody);
    if (old !== undefined) this.delete(old);
    const list = this.byTarget.get(target);
    if (list !== undefined && list.length >= ENTRIES_PER_TARGET) this.delete(list[0]!);
    for (const oldest of this.order) {
      if (this.total + bytes <= this.maxBytes && this.order.size < this.maxEntries) break;
      this.delete(oldest);
    }
    // A copy: the body read from the socket may share its memory with the rest of that read.
    const kept = requestBody.length === 0 ? NO_BODY : Buffer.from(requestBody);
    const entry: ReplayEntry = {
      method: req.method ?? '',
      target,
      tls: overTls(req),
      rawHeaders,
      requestBody: kept,
      status,
      headers,
      body,
      stamp,
      bytes,
    };
    const now = this.byTarget.get(target);
    if (now === undefined) this.byTarget.set(target, [entry]);
    else now.push(entry);
    this.order.add(entry);
    this.total += bytes;
  }

  /** Whether `print` is in the ring of recent bodies; when it is not, it goes in (over the oldest). */
  private seenBefore(print: number): boolean {
    // A 0 fingerprint would match the ring's empty slots.
    const p = print === 0 ? 1 : print;
    if (this.seen.includes(p)) return true;
    this.seen[this.seenNext] = p;
    this.seenNext = (this.seenNext + 1) % this.seen.length;
    return false;
  }

  delete(entry: ReplayEntry): void {
    if (!this.order.delete(entry)) return;
    this.total -= entry.bytes;
    const list = this.byTarget.get(entry.target);
    if (list === undefined) return;
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byTarget.delete(entry.target);
  }

  /** How many answers are kept, and the bytes counted for them. */
  size(): { entries: number; bytes: number } {
    return { entries: this.order.size, bytes: this.total };
  }
}
