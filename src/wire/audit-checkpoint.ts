/**
 * `GET siteward/v1/audit/checkpoint` (docs/audit-log.md "REST"): the newest signed checkpoint and
 * whether its signature verifies with this server's key. Types only (test/layers.test.ts).
 */

export interface AuditCheckpointStatus {
  /** The newest checkpoint without its signature, or null when none was signed yet. */
  readonly checkpoint: {
    /** The last event id it covers. */
    readonly last_id: number;
    /** Hex SHA-256 of that event's row (the chain's head then). */
    readonly head_hash: string;
    /** Events written up to it, purged ones included. */
    readonly count: number;
    /** When it was signed, UTC ms. */
    readonly time: number;
  } | null;
  /** Whether its Ed25519 signature verifies with this server's key (false when there is none). */
  readonly signature_valid: boolean;
}
