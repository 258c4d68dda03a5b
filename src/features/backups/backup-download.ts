/**
 * `GET /admin/backups/download?target=local|s3&id=<id>`: a backup of this store exactly as
 * stored (encrypted when it is), streamed from the directory or the bucket, for administrators
 * only (the file holds every password hash). A page, not a REST route: the REST layer answers
 * JSON, and a download is a file.
 */
import { BACKUP_SUFFIX } from './backup-file.js';
import { isBackupId } from './backup-manifest.js';
import type { BackupSetup } from './backup-setup.js';
import { htmlPage, type PageDefinition } from '../contract.js';
import { escapeHtml } from '../../core/html.js';

export const DOWNLOAD_PATH = '/admin/backups/download';

export function backupDownloadPage(setup: BackupSetup): PageDefinition {
  const refuse = (status: number, text: string) =>
    htmlPage(status, `<!doctype html><title>Backup download</title><p>${escapeHtml(text)}</p>`);
  return {
    method: 'GET',
    path: DOWNLOAD_PATH,
    async handle(req) {
      const identity = await req.identity();
      if (identity.kind !== 'cookie' && identity.kind !== 'other') return refuse(401, 'Log in as an administrator to download backups.');
      if (!identity.principal.can('manage_options')) return refuse(403, 'Only administrators may download backups.');
      const { target: kind, id } = req.query;
      const target = setup.targets.find((t) => t.kind === kind);
      if (target === undefined || typeof id !== 'string' || !isBackupId(id)) return refuse(404, 'No such backup.');
      const found = await target.read(await setup.storeId(), id);
      if (found === null) return refuse(404, 'No such backup.');
      return {
        status: 200,
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(found.size),
          'Content-Disposition': `attachment; filename="siteward-${id}${BACKUP_SUFFIX}"`,
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        },
        stream: found.stream,
      };
    },
  };
}
