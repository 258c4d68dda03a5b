/**
 * WordPress's collection paging headers: `X-WP-Total`, `X-WP-TotalPages` and a `Link` header
 * with `prev`/`next` (the request's other query parameters kept), for any paged list.
 */
import type { RestRequest } from '../rest/types.js';

export function pagingHeaders(
  total: number,
  page: number,
  perPage: number,
  request: RestRequest,
  collectionUrl: string,
): Record<string, string> {
  const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  const urlFor = (target: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(request.query)) {
      if (k === 'page') continue;
      if (Array.isArray(v)) for (const item of v) params.append(`${k}[]`, String(item));
      else if (typeof v === 'string') params.append(k, v);
    }
    params.set('page', String(target));
    return `${collectionUrl}${collectionUrl.includes('?') ? '&' : '?'}${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${urlFor(Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (totalPages > page) links.push(`<${urlFor(page + 1)}>; rel="next"`);
  if (links.length > 0) headers.Link = links.join(', ');
  return headers;
}
