/**
 * Entry of the admin app. Everything the first screen needs is in `window.Initial_State`
 * (rendered inline by the server with a CSP nonce): no request before the first paint.
 */
// First: the nonced style runtime must exist before @wordpress/components registers its styles.
import { cspNonce } from './style-runtime';
import 'virtual:siteward-tokens.css';
import '@wordpress/components/build-style/style.css';
import './styles.css';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi } from './api';
import { App } from './App';
import { SiteProvider } from './site';
import type { InitialState } from './types';

declare global {
  interface Window {
    Initial_State: InitialState;
  }
}

const state = window.Initial_State;
configureApi(state.WP_API_root, state.WP_API_nonce);

// The component library's style elements carry the page's CSP nonce (the one of the inline Initial_State script).
const cache = createCache({ key: 'sw', nonce: cspNonce });

// The `?connection=` notice rendered by the server: taken over by the app (and the code dropped from the address).
const serverNoticeElement = document.getElementById('connection-notice');
const serverNotice = serverNoticeElement
  ? {
      status: serverNoticeElement.classList.contains('notice-error') ? ('error' as const) : ('success' as const),
      text: serverNoticeElement.textContent ?? '',
      topic: 'connection',
    }
  : null;
serverNoticeElement?.remove();
if (new URLSearchParams(window.location.search).has('connection')) {
  window.history.replaceState(null, '', window.location.pathname + window.location.hash);
}

const root = document.getElementById('root');
if (root) {
  root.textContent = '';
  createRoot(root).render(
    <StrictMode>
      <CacheProvider value={cache}>
        <SiteProvider initial={state} serverNotice={serverNotice}>
          <App />
        </SiteProvider>
      </CacheProvider>
    </StrictMode>,
  );
}
