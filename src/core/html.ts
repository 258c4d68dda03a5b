/** HTML output helpers shared by the pages and the error messages. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/**
 * Escapes text for HTML element content and attribute values: `& < > " '` become entities
 * (`'` as `&#039;`, as WordPress's `esc_html` and `esc_attr` print it). Existing entities are
 * escaped again; for WordPress's no-double-encoding `esc_html` use `escHtml` of the argument helpers.
 *
 * @example
 * escapeHtml(`<a href="x">Tom's</a>`) // '&lt;a href=&quot;x&quot;&gt;Tom&#039;s&lt;/a&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
