import type { Store } from '../../store/types.js';

/** What a store command needs from its caller (the `siteward` binary, or a test). */
export interface CliContext {
  readonly store: Store;
  readonly stdin: NodeJS.ReadableStream;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The site's home URL from this command's settings, for links the command prints (e.g. a new setup link). */
  readonly homeUrl?: string;
  /** The home URL of the server running on this data directory (its server.pid), or null when none runs. */
  readonly runningServerUrl?: () => Promise<string | null>;
  /** Turns a user's two-factor authentication off (`user 2fa reset`); true when it was on or pending. */
  readonly resetTwoFactor?: (userId: number) => Promise<boolean>;
}
