import { randomBytes } from 'node:crypto';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit codes: success, a refused operation, a command line that could not be understood. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A command-line mistake, reported as one line with exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;
type StrictConfig<O extends Options> = { args: string[]; options: O; allowPositionals: true; strict: true };

/**
 * A parseArgs error as one line. Node's unknown-option message goes on with advice about
 * positionals that ends in an unbalanced quote (`as in '-- "--bogus"`): only its first sentence is kept.
 */
export function argsErrorMessage(error: Error): string {
  return error.message.replace(/\. To specify a positional argument[\s\S]*$/, '');
}

/** node:util parseArgs with positionals, its errors turned into one-line UsageErrors. */
export function parse<O extends Options>(args: string[], options: O): ReturnType<typeof parseArgs<StrictConfig<O>>> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? argsErrorMessage(error) : String(error));
  }
}

/** Exactly `names.length` positionals, named in the error when missing or extra. */
export function positionals(values: string[], names: readonly string[], usage: string): string[] {
  if (values.length !== names.length) {
    const missing = names.slice(values.length);
    throw new UsageError(
      missing.length > 0 ? `missing ${missing.map((n) => `<${n}>`).join(' ')}; usage: ${usage}` : `too many arguments; usage: ${usage}`,
    );
  }
  return values;
}

/** All of stdin as text, without the final line break (`printf 'pw\n' | siteward …`). */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The password of `--password` or `--password-stdin`, or null when neither was given. */
export async function passwordOption(
  values: { password?: string | boolean; 'password-stdin'?: string | boolean },
  stdin: NodeJS.ReadableStream,
): Promise<string | null> {
  const inline = typeof values.password === 'string' ? values.password : undefined;
  const fromStdin = values['password-stdin'] === true;
  if (inline !== undefined && fromStdin) throw new UsageError('use either --password or --password-stdin, not both');
  if (fromStdin) return readStdin(stdin);
  return inline ?? null;
}

/** A generated login password: 24 URL-safe characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Where a command writes its error lines. */
export interface CliErrorOutput {
  readonly err: (line: string) => void;
}

/** Runs a command body, turning UsageErrors into one-line messages and exit code 2. */
export async function guarded(ctx: CliErrorOutput, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.err(`error: ${error.message}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

/** ISO time in seconds, or `-` for never. */
export function formatTime(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Runs the subcommand named by `argv[0]` of a command group (`user`, `app-password`), or a
 * usage error listing the group's subcommands.
 */
export function runSubcommand<C extends CliErrorOutput>(
  group: string,
  usage: Readonly<Record<string, string>>,
  handlers: Readonly<Record<string, (args: string[], ctx: C) => Promise<number>>>,
  argv: string[],
  ctx: C,
): Promise<number> {
  return guarded(ctx, async () => {
    const [sub, ...args] = argv;
    const handler = sub === undefined ? undefined : handlers[sub];
    if (!handler) {
      throw new UsageError(
        `${sub === undefined ? 'missing' : 'unknown'} ${group} command${sub === undefined ? '' : ` "${sub}"`}; use one of: ${Object.values(usage).join(' | ')}`,
      );
    }
    return handler(args, ctx);
  });
}
