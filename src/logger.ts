/**
 * The server's logger: one JSON object per line for log shippers, or human lines for a person
 * at a terminal (pino-pretty in the process, colours only on a terminal). `LOG_FORMAT` forces
 * either; `auto` picks human lines when standard output is a terminal.
 */
import { createRequire } from 'node:module';
import { pino, type Logger as PinoLogger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { Config } from './config/config.js';

// pino-pretty (and what it pulls in) is loaded only when human lines are chosen: a server logging
// JSON never needs it, and a module once loaded stays in the process's memory. makeLogger is
// synchronous, so it is required, not imported.
const require = createRequire(import.meta.url);

export type LogFormat = 'json' | 'pretty';

/** What `LOG_FORMAT` asks for on this output. */
export function logFormatFor(setting: Config['logFormat'], isTTY: boolean): LogFormat {
  return setting === 'auto' ? (isTTY ? 'pretty' : 'json') : setting;
}

/** The request fields (`GET /wp-json/ 200 1.2 ms`) said in the line instead of as an object after it. */
const REQUEST_KEYS = ['method', 'url', 'status', 'ms'] as const;

/** `request` lines say only the request; other messages keep their text and add any request field. */
function messageOf(log: Record<string, unknown>, messageKey: string): string {
  const fields = REQUEST_KEYS.filter((key) => log[key] !== undefined).map((key) =>
    key === 'ms' ? `${String(log[key])} ms` : String(log[key]),
  );
  const message = typeof log[messageKey] === 'string' ? log[messageKey] : '';
  return [message === 'request' && fields.length > 0 ? '' : message, ...fields].filter((part) => part !== '').join(' ');
}

export function makeLogger(config: Config, quiet: boolean, output: { readonly isTTY?: boolean } = process.stdout): PinoLogger {
  const options = { level: quiet && config.logLevel === 'info' ? 'warn' : config.logLevel, base: { pid: process.pid } };
  const isTTY = output.isTTY === true;
  if (logFormatFor(config.logFormat, isTTY) === 'json') return pino(options);
  const pinoPretty = require('pino-pretty') as typeof PinoPretty;
  const pretty = pinoPretty({
    colorize: isTTY && process.env.NO_COLOR === undefined,
    translateTime: 'SYS:HH:MM:ss.l',
    // Fastify's request id and the process id say nothing to a person reading along.
    ignore: ['pid', 'hostname', 'reqId', ...REQUEST_KEYS].join(','),
    messageFormat: messageOf,
    singleLine: true,
    // Lines written before an exit are not lost.
    sync: true,
  });
  return pino(options, pretty);
}
