/** A form's one action: busy while it runs, its refusal kept to show above the form. */
import { Notice } from '@wordpress/components';
import { useState, type FormEvent } from 'react';
import { errorText } from '../site';

export function useSubmit(action: () => Promise<void>): {
  busy: boolean;
  error: string | null;
  onSubmit: (event: FormEvent) => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    action()
      .catch((err: unknown) => setError(errorText(err)))
      .finally(() => setBusy(false));
  };
  return { busy, error, onSubmit };
}

/** The refusal of a form's action, above its fields. */
export function FormError({ error }: { error: string | null }) {
  if (error === null) return null;
  return (
    <Notice status="error" isDismissible={false}>
      {error}
    </Notice>
  );
}
