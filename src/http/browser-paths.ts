import { deflateSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PAGE_CSS, PAGE_STYLE_HEADERS, PAGE_STYLE_PATH } from '../core/page-style.js';
import { simplePage } from '../core/simple-page.js';

/**
 * The favicon browsers ask for (the login feature sends `/wp-admin/` and `/wp-login.php` on) and
 * the stylesheet of the server's pages (core/page-style.ts).
 */
export function registerBrowserPaths(app: FastifyInstance): void {
  const icon = favicon();
  // One route whatever the hash (routes.md stays the same when the stylesheet changes); an old hash is a 404.
  app.get('/assets/:file', async (req, reply) => {
    if (req.url.split('?')[0] !== PAGE_STYLE_PATH) return reply.callNotFound();
    return reply.code(200).headers(PAGE_STYLE_HEADERS).send(PAGE_CSS);
  });
  app.get('/favicon.ico', async (_req, reply) =>
    reply.code(200).header('Content-Type', 'image/x-icon').header('Cache-Control', 'public, max-age=86400').send(icon),
  );
}

/** True when the client asked for HTML (a browser navigating), not JSON (an API client). */
export function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return /\btext\/html\b/i.test(accept);
}

/** The site's 404 page for browsers. */
export function notFoundPage(siteName?: string): string {
  return simplePage(
    'Page not found',
    '<p>There is nothing at this address. It may have moved, or the link may be mistyped.</p><ul class="sw-links"><li><a href="/">Home</a></li><li><a href="/login">Log in</a></li><li><a href="/admin/">Dashboard</a></li></ul>',
    siteName === undefined ? {} : { siteName },
  );
}

/** A 16×16 icon in the login page's blue: an ICO file holding one PNG image. */
function favicon(): Buffer {
  const size = 16;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 4, Buffer.from([0x22, 0x71, 0xb1, 0xff]))]);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.set([size, size, 0, 0], 6);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
