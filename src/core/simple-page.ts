import { escapeHtml } from './html.js';

const STYLE = `body{font-family:system-ui,sans-serif;background:#f0f0f1;margin:0}main{max-width:340px;margin:8vh auto;background:#fff;padding:24px 28px;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15)}label{display:block;margin:12px 0 4px}input[type=text],input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:8px;font-size:15px}button{margin-top:16px;padding:8px 16px;font-size:15px}.error{color:#b32d2e}.notice{color:#2271b1}`;

/** A minimal page with a title and an HTML body fragment. */
export function simplePage(title: string, bodyHtml: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Siteward</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${bodyHtml}</main></body></html>`;
}
