/** Previous / Page n of m / Next under a paged list; nothing when there is one page. */
import { Button } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';

export function Pager({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="sw-pager" aria-label={label}>
      <Button variant="secondary" size="compact" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {__('Previous', 'siteward')}
      </Button>
      {/* translators: 1: the page shown, 2: how many pages there are. */}
      <span>{sprintf(__('Page %1$d of %2$d', 'siteward'), page, totalPages)}</span>
      <Button variant="secondary" size="compact" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        {__('Next', 'siteward')}
      </Button>
    </nav>
  );
}
