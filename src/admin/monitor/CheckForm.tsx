/** A check's settings (URL, expected status, keyword, slowness), for a new check or an existing one. */
import { Button } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { errorText, useNotify } from '../site';
import type { MonitorCheck } from '../types';
import { CheckboxRow, TextRow } from '../ui/form-rows';

export type CheckBody = { url?: string; expectedStatus: string; keyword: string | null; keywordAbsent: boolean; slowMs: number | null };

export function CheckForm({
  initial,
  withUrl,
  submitLabel,
  onSubmit,
}: {
  initial: Partial<MonitorCheck>;
  withUrl: boolean;
  submitLabel: string;
  onSubmit: (body: CheckBody) => Promise<void>;
}) {
  const { notify } = useNotify();
  const [url, setUrl] = useState(initial.url ?? '');
  const [expected, setExpected] = useState(initial.expectedStatus ?? '');
  const [keyword, setKeyword] = useState(initial.keyword ?? '');
  const [absent, setAbsent] = useState(initial.keywordAbsent ?? false);
  const [slow, setSlow] = useState(initial.slowMs === null || initial.slowMs === undefined ? '' : String(initial.slowMs));
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit({
        ...(withUrl ? { url } : {}),
        expectedStatus: expected,
        keyword: keyword === '' ? null : keyword,
        keywordAbsent: absent,
        slowMs: slow === '' ? null : Number(slow),
      });
      notify({ status: 'success', text: __('The check is saved.', 'siteward') });
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('The check was not saved: %s', 'siteward'), errorText(error)) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="sw-monitor-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {withUrl && (
        <TextRow label={__('URL (of this site: its API, its CDN…)', 'siteward')} type="url" value={url} onChange={setUrl} required />
      )}
      <TextRow
        label={__('Expected status', 'siteward')}
        help={__('e.g. 200, 2xx, 200-299; empty: 2xx and 3xx', 'siteward')}
        value={expected}
        onChange={setExpected}
      />
      <TextRow label={__('Keyword in the page', 'siteward')} help={__('Optional', 'siteward')} value={keyword} onChange={setKeyword} />
      <CheckboxRow
        label={__('Down when the keyword IS on the page (e.g. an error message)', 'siteward')}
        checked={absent}
        onChange={setAbsent}
      />
      <TextRow label={__('Slow above (ms)', 'siteward')} type="number" min={1} value={slow} onChange={setSlow} />
      <div className="sw-actions">
        <Button variant="primary" type="submit" isBusy={busy} disabled={busy} __next40pxDefaultSize>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
