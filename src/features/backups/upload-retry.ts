/**
 * Retrying an upload with back-off: a bucket that is briefly unreachable (a network blip, a
 * 503 slow-down) should not cost the night's off-site copy, and one that stays unreachable
 * must end in a reported failure, never in silence.
 */
export interface RetryPolicy {
  /** Waits before the 2nd, 3rd, … attempt, in ms (attempts = delays + 1). */
  readonly delaysMs: readonly number[];
  /** Injected in tests (they never sleep). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** 4 attempts over about 2½ minutes. */
export const DEFAULT_RETRY: RetryPolicy = { delaysMs: [5_000, 30_000, 120_000] };

export type RetryOutcome =
  { readonly ok: true; readonly attempts: number } | { readonly ok: false; readonly attempts: number; readonly message: string };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function uploadWithRetry(upload: () => Promise<void>, policy: RetryPolicy = DEFAULT_RETRY): Promise<RetryOutcome> {
  const sleep = policy.sleep ?? realSleep;
  let last = '';
  for (let attempt = 1; attempt <= policy.delaysMs.length + 1; attempt += 1) {
    if (attempt > 1) await sleep(policy.delaysMs[attempt - 2]);
    try {
      await upload();
      return { ok: true, attempts: attempt };
    } catch (error) {
      const e = error as Error & { $metadata?: { httpStatusCode?: number } };
      last = `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}${e.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : ''}`;
    }
  }
  return { ok: false, attempts: policy.delaysMs.length + 1, message: last };
}
