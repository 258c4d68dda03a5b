/**
 * Siteward's design tokens, light and dark: the one source of the colours shared by the admin
 * app (src/admin, which imports them through its build, vite.config.ts) and the server's own
 * pages (page-style.ts: /login, /setup, the home page, the 404 page, the account service).
 */
export const DESIGN_TOKENS_CSS = `:root {
  color-scheme: light dark;
  --sw-bg: #f0f0f1;
  --sw-surface: #ffffff;
  --sw-text: #1e1e1e;
  --sw-muted: #50575e;
  --sw-border: #dcdcde;
  --sw-input-border: #8c8f94;
  --sw-input-bg: #ffffff;
  --sw-header: #1d2327;
  --sw-header-text: #f0f0f1;
  --sw-accent: #2271b1;
  --sw-accent-hover: #135e96;
  --sw-accent-text: #ffffff;
  --sw-link: #2271b1;
  --sw-focus: #2271b1;
  --sw-bar: #2271b1;
  --sw-up: #b8e6bf;
  --sw-down: #d63638;
  --sw-error: #b32d2e;
  --sw-error-bg: #fcf0f1;
  --sw-info-bg: #f0f6fc;
  --sw-success: #00a32a;
  --sw-success-bg: #edfaef;
  --sw-badge-bg: #e6f0f8;
  --sw-badge-text: #0a4b78;
  --sw-badge2-bg: #f6f0e4;
  --sw-badge2-text: #6b4a00;
  --sw-jumpstart: #e7f5ea;
  --sw-radius: 4px;
  --sw-font: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Oxygen-Sans, Ubuntu, Cantarell, "Helvetica Neue", sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root {
    --sw-bg: #16181b;
    --sw-surface: #22262b;
    --sw-text: #eceef0;
    --sw-muted: #b4bac0;
    --sw-border: #3a4047;
    --sw-input-border: #6b737b;
    --sw-input-bg: #15171a;
    --sw-header: #0d0f11;
    --sw-header-text: #eceef0;
    --sw-accent: #72aee6;
    --sw-accent-hover: #9ec2e6;
    --sw-accent-text: #0d0f11;
    --sw-link: #8cc0ee;
    --sw-focus: #8cc0ee;
    --sw-bar: #72aee6;
    --sw-up: #2c5a36;
    --sw-down: #ff8085;
    --sw-error: #ff9a9e;
    --sw-error-bg: #3a1a1c;
    --sw-info-bg: #16283a;
    --sw-success: #7ad98f;
    --sw-success-bg: #16301d;
    --sw-badge-bg: #1d3a52;
    --sw-badge-text: #cfe5f7;
    --sw-badge2-bg: #4a3a17;
    --sw-badge2-text: #f5e3b8;
    --sw-jumpstart: #1d3324;
  }
}
`;
