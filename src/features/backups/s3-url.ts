/**
 * `SITEWARD_BACKUP_S3_URL`: `s3://<bucket>/<prefix>?endpoint=<url>&region=<r>&forcePathStyle=true`.
 * The query is optional for AWS itself; MinIO, R2 and B2 need `endpoint` (and MinIO
 * `forcePathStyle=true`). Credentials are never in the URL: the SDK's standard sources
 * (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, instance roles) provide them.
 */
export interface S3Location {
  readonly bucket: string;
  /** Key prefix without leading or trailing slash ('' for the bucket's root). */
  readonly prefix: string;
  readonly endpoint: string | null;
  /** Null: the SDK's own (AWS_REGION, the profile), else us-east-1. */
  readonly region: string | null;
  readonly forcePathStyle: boolean;
}

export type S3UrlResult = { readonly ok: true; readonly location: S3Location } | { readonly ok: false; readonly message: string };

const KNOWN = new Set(['endpoint', 'region', 'forcePathStyle']);

export function parseS3Url(text: string): S3UrlResult {
  const fail = (why: string): S3UrlResult => ({
    ok: false,
    message: `${why}; expected s3://<bucket>/<prefix>?endpoint=<url>&region=<region>&forcePathStyle=true`,
  });
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return fail('is not a URL');
  }
  if (url.protocol !== 's3:') return fail('must start with s3://');
  if (url.username !== '' || url.password !== '')
    return fail('must not hold credentials (they come from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or a profile)');
  const bucket = url.hostname;
  // S3's bucket naming rules (lower case, digits, dots, hyphens; 3-63).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return fail(`has no valid bucket name (got "${bucket}")`);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  for (const key of url.searchParams.keys()) if (!KNOWN.has(key)) return fail(`has an unknown parameter "${key}"`);
  const endpoint = url.searchParams.get('endpoint');
  if (endpoint !== null) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(endpoint);
    } catch {
      parsed = null;
    }
    if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      return fail('has an endpoint that is not an http(s) URL');
  }
  const style = url.searchParams.get('forcePathStyle');
  if (style !== null && style !== 'true' && style !== 'false') return fail('has forcePathStyle other than true or false');
  return { ok: true, location: { bucket, prefix, endpoint, region: url.searchParams.get('region'), forcePathStyle: style === 'true' } };
}

/** The location as people read it (no query). */
export function s3Where(location: S3Location): string {
  return `s3://${location.bucket}/${location.prefix}`;
}
