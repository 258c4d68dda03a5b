/** What the HTTP adapter hands the REST layer, and what it writes back. */
import type { HeaderList } from './header-list.js';
import type { ReplayStamp } from './replay.js';
import type { RequestOrigin } from './rest-url.js';
import type { Identity } from './types.js';

/** A request as the HTTP adapter hands it over. */
export interface IncomingRestRequest {
  method: string;
  /** The REST route (`/jetpack/v4/module/all`), trailing slash already removed; '' or '/' = index. */
  route: string;
  /** PHP-style parsed query string. */
  query: Record<string, unknown>;
  /** Lower-case header names (not modified by the REST layer). */
  headers: Readonly<Record<string, string>>;
  /** The raw body (empty for none). */
  body: Buffer | string;
  origin: RequestOrigin;
  /** The client's address ('' when unknown). */
  clientIp?: string;
  /** Who is asking, when the adapter already asked (`preflight`), so credentials are checked once. */
  identity?: Identity;
}

/** What the HTTP adapter writes back. For HEAD the adapter sends the headers (Content-Length of `body`) only. */
export interface RestOutput {
  status: number;
  /** `[name, value, …]` in sending order; a later value of a name replaced the earlier one. */
  headers: HeaderList;
  /** JSON text (a Buffer when it was cached); null for a HEAD given by `_method` on another verb. */
  body: string | Buffer | null;
  /**
   * Present when these bytes may answer a byte-identical repeat of the request while
   * `replayable(replay)` holds (src/rest/replay.ts).
   */
  replay?: ReplayStamp;
  /** A streamed body (`StreamedResponse`): written chunk by chunk with backpressure; `body` is then null. */
  stream?: AsyncIterable<string | Buffer>;
}
