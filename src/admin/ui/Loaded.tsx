/** Loading and failure, said the same way on every screen, and `<Loaded>` which picks between them and the data. */
import { Button, Spinner } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import type { ReactNode } from 'react';
import type { ApiError } from '../api';
import type { Loading as Load } from '../data/use-rest';

/** `text` is the whole sentence ("Loading backups…"): a translation needs all of it. */
export function Loading({ text }: { text: string }) {
  return (
    <p className="sw-muted" role="status">
      <Spinner /> {text}
    </p>
  );
}

export function Failed({ error, retry }: { error: ApiError; retry: () => void }) {
  return (
    <div className="sw-card-error" role="alert">
      <p>{error.message}</p>
      <Button variant="secondary" size="compact" onClick={retry}>
        {__('Try again', 'siteward')}
      </Button>
    </div>
  );
}

/** An endpoint that this server does not have (yet): said plainly, not as an error. */
export function isMissingRoute(error: ApiError): boolean {
  return error.code === 'rest_no_route';
}

/**
 * The data once loaded (`children`), else "Loading…" (`loading` is its sentence) or the failure
 * with Try again. `failed` may say a known refusal its own way (a missing route, a module that is
 * off): it returns what to show, or undefined for the usual failure.
 */
export function Loaded<T>({
  load,
  loading,
  failed,
  children,
}: {
  load: Load<T>;
  loading: string;
  failed?: (error: ApiError) => ReactNode | undefined;
  children: (data: T) => ReactNode;
}) {
  if (load.state === 'loading') return <Loading text={loading} />;
  if (load.state === 'error') return <>{failed?.(load.error) ?? <Failed error={load.error} retry={load.reload} />}</>;
  return <>{children(load.data)}</>;
}
