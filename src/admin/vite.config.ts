/**
 * Builds the admin page's single-page app (src/admin) into dist/admin: hashed file names under
 * dist/admin/assets (served with long immutable caching) and a manifest the server-side page
 * reads to link the entry script and its stylesheet. No HTML comes out of the build: the page
 * itself is rendered by src/features/admin-page with Initial_State inline.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { DESIGN_TOKENS_CSS } from '../core/theme.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `virtual:siteward-tokens.css`: the design tokens shared with the server's pages, from their one source. */
const TOKENS_ID = 'virtual:siteward-tokens.css';
function designTokens(): Plugin {
  return {
    name: 'siteward-design-tokens',
    resolveId: (id) => (id === TOKENS_ID ? `\0${TOKENS_ID}` : undefined),
    load: (id) => (id === `\0${TOKENS_ID}` ? DESIGN_TOKENS_CSS : undefined),
  };
}

export default defineConfig({
  root: here,
  base: '/admin/',
  plugins: [designTokens(), react()],
  // The app reads process.env.NODE_ENV through React; Vite replaces it at build time.
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: path.resolve(here, '../../dist/admin'),
    emptyOutDir: true,
    manifest: 'manifest.json',
    sourcemap: false,
    target: 'es2022',
    // No inline polyfill script: the page's CSP allows no inline script but Initial_State.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: path.resolve(here, 'main.tsx'),
    },
  },
});
