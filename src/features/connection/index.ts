/**
 * The connection to the central account service (compat.md §9: any OpenID Connect provider).
 *
 * Seam: until the OpenID Connect client lands, this feature provides the one fact the other
 * features read, "is the site connected", and it is always no. It serves no route, so no
 * client is told the site can connect.
 */
import type { Feature } from '../contract.js';

/** What other features read of the connection. */
export interface ConnectionStatus {
  /** Registered with the provider and a master user linked. */
  isConnected(): Promise<boolean>;
}

declare module '../contract.js' {
  interface FeatureServices {
    connection: ConnectionStatus;
  }
}

export const connectionFeature: Feature = {
  name: 'connection',
  register(ctx) {
    ctx.provide('connection', { isConnected: async () => false });
  },
};
