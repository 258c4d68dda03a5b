/** Where the Monitor screen reads and writes (siteward/v1/monitor); invalidating M refreshes every Monitor answer, At a Glance's too. */
export const M = '/siteward/v1/monitor';
