/**
 * A module record's fields in the reference's order (docs/spec/jetpack-v4-reference.md §5.1), for the
 * tests that check it; Siteward's `runtime`, `unavailable_reason` and `option_texts` follow them.
 */
export const RECORD_FIELDS = [
  'name',
  'description',
  'jumpstart_desc',
  'sort',
  'recommendation_order',
  'introduced',
  'changed',
  'deactivate',
  'free',
  'requires_connection',
  'auto_activate',
  'module_tags',
  'feature',
  'additional_search_queries',
  'module',
  'activated',
  'deactivate_nonce',
  'activate_nonce',
  'available',
  'short_description',
  'configure_url',
  'learn_more_button',
  'long_description',
  'search_terms',
  'configurable',
  'options',
] as const;

/** The header fields `GET module/{slug}` answers before the options. */
export const HEADER_FIELDS = RECORD_FIELDS.slice(0, 14);
