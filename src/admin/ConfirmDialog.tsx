/** The page's one confirmation dialog: every action that cannot be undone asks through it (never `window.confirm`). */
import { Button, Modal } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import type { ReactNode } from 'react';

export function ConfirmDialog({
  title,
  confirmLabel,
  destructive = false,
  busy = false,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  destructive?: boolean;
  /** The action is on its way: both buttons wait. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Modal title={title} onRequestClose={() => !busy && onCancel()} size="small">
      <div className="sw-dialog-body">{children}</div>
      <div className="sw-actions">
        <Button variant="primary" isDestructive={destructive} isBusy={busy} disabled={busy} onClick={onConfirm} __next40pxDefaultSize>
          {confirmLabel}
        </Button>
        <Button variant="tertiary" disabled={busy} onClick={onCancel} __next40pxDefaultSize>
          {__('Cancel', 'siteward')}
        </Button>
      </div>
    </Modal>
  );
}
