/** Every error of Siteward's own Protect routes (`siteward/v1/protect/…`) and command, in one catalogue. */
import { errorCatalogue, type CatalogueId } from '../../rest/errors.js';

export const protectError = errorCatalogue({
  invalid_address: {
    code: 'protect_invalid_address',
    message: '"{address}" is not an IP address (IPv6 may be given as its /64).',
    status: 400,
  },
  prefix_mismatch: {
    code: 'protect_invalid_address',
    message: '"{address}": /64 is a prefix of IPv6 addresses only; give an IPv4 address without a prefix.',
    status: 400,
  },
  not_blocked: { code: 'protect_not_blocked', message: '{address} is not blocked.', status: 404 },
  invalid_page_number: {
    code: 'rest_invalid_page_number',
    message: 'The page number requested is larger than the number of pages available.',
    status: 400,
  },
  invalid_notifications: {
    code: 'protect_invalid_notifications',
    message: 'administrators must be a list of administrator user ids and webhook true or false.',
    status: 400,
  },
});

export type ProtectErrorId = CatalogueId<typeof protectError>;
