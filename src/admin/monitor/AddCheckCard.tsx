/** More URLs of this site to check (up to 5). */
import { Button } from '@wordpress/components';
import { TitledCard } from '../ui/TitledCard';
import { __, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api } from '../api';
import { CheckForm } from './CheckForm';
import { M } from './paths';

export function AddCheckCard({ count, onAdded }: { count: number; onAdded: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <TitledCard title={__('More URLs of this site', 'siteward')}>
      {/* translators: %d: how many more URLs are checked now. */}
      <p className="sw-help">{sprintf(__('Up to 5 more URLs, each with its own history (%d now).', 'siteward'), count - 1)}</p>
      {open ? (
        <CheckForm
          initial={{}}
          withUrl
          submitLabel={__('Add check', 'siteward')}
          onSubmit={async (body) => {
            await api(`${M}/checks`, { method: 'POST', data: body });
            setOpen(false);
            onAdded();
          }}
        />
      ) : (
        <Button variant="secondary" onClick={() => setOpen(true)} disabled={count > 5} __next40pxDefaultSize>
          {__('Add a URL', 'siteward')}
        </Button>
      )}
    </TitledCard>
  );
}
