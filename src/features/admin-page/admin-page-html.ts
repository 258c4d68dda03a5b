import { escapeHtml } from '../../core/html.js';

/** JSON safe inside a `<script>` element (no `</script>`, no HTML comment or line-separator tricks). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The admin page shell. It carries `window.Initial_State` (REST root, nonce, modules, …) exactly
 * as the historical admin client expects it; the page script lists the modules and toggles them
 * through the REST API with the nonce.
 */
export function adminPage(opts: { initialState: Record<string, unknown>; userLogin: string; logoutNonce: string; notice?: { tone: 'success' | 'error'; text: string } | null }): string {
  const notice = opts.notice ? `<div id="connection-notice" class="notice notice-${opts.notice.tone}" role="status">${escapeHtml(opts.notice.text)}</div>\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Siteward admin</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f0f0f1}header{background:#1d2327;color:#fff;padding:12px 20px;display:flex;justify-content:space-between;align-items:center}main{max-width:960px;margin:20px auto;padding:0 20px}table{width:100%;border-collapse:collapse;background:#fff}td,th{padding:8px 10px;border-bottom:1px solid #ddd;text-align:left}button{cursor:pointer}.notice{padding:10px 14px;margin-bottom:16px;background:#fff;border-left:4px solid}.notice-success{border-color:#00a32a}.notice-error{border-color:#d63638}</style>
<script>var Initial_State = ${scriptJson(opts.initialState)};</script>
</head>
<body>
<header><strong>Siteward</strong><form method="post" action="/logout"><input type="hidden" name="_wpnonce" value="${escapeHtml(opts.logoutNonce)}"><span>${escapeHtml(opts.userLogin)}</span> <button type="submit">Log out</button></form></header>
<main>
${notice}<p id="connection"></p>
<h1>Modules</h1>
<table><thead><tr><th>Module</th><th>Description</th><th>Status</th></tr></thead><tbody id="modules"></tbody></table>
</main>
<script>
(function () {
  var state = window.Initial_State;
  var body = document.getElementById('modules');
  function render(modules) {
    body.textContent = '';
    Object.keys(modules).forEach(function (slug) {
      var m = modules[slug];
      var tr = document.createElement('tr');
      tr.id = 'module-' + slug;
      var name = document.createElement('td'); name.textContent = m.name;
      var desc = document.createElement('td'); desc.textContent = m.short_description || m.description;
      var cell = document.createElement('td');
      var button = document.createElement('button');
      button.textContent = m.activated ? 'Deactivate' : 'Activate';
      button.disabled = !m.available;
      button.onclick = function () {
        button.disabled = true;
        fetch(state.WP_API_root + 'jetpack/v4/module/' + slug + '/active', {
          method: 'PUT', credentials: 'same-origin',
          headers: { 'X-WP-Nonce': state.WP_API_nonce, 'Content-type': 'application/json' },
          body: JSON.stringify({ active: !m.activated })
        }).then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.message); }); })
          .then(function () { m.activated = !m.activated; render(modules); })
          .catch(function (e) { alert(e.message); button.disabled = false; });
      };
      cell.appendChild(button);
      tr.appendChild(name); tr.appendChild(desc); tr.appendChild(cell);
      body.appendChild(tr);
    });
  }
  render(state.getModules || {});

  // Connect (or link one's own account): the connect URL leads through the account service's login and back here.
  var user = (state.userData && state.userData.currentUser) || {};
  var connected = state.connectionStatus && state.connectionStatus.isActive;
  if (!user.isConnected && !(state.connectionStatus && state.connectionStatus.devMode.isActive) && (connected || (user.permissions && user.permissions.connect))) {
    var connect = document.createElement('button');
    connect.id = 'connect';
    connect.textContent = connected ? 'Link your account' : 'Connect to the central account service';
    connect.onclick = function () {
      connect.disabled = true;
      fetch(state.WP_API_root + 'jetpack/v4/connect-url', { credentials: 'same-origin', headers: { 'X-WP-Nonce': state.WP_API_nonce } })
        .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.message); window.location.href = j; }); })
        .catch(function (e) { alert(e.message); connect.disabled = false; });
    };
    document.getElementById('connection').appendChild(connect);
  } else if (user.isConnected) {
    document.getElementById('connection').textContent = 'Linked to ' + (user.wpcomUser.login || user.wpcomUser.email) + (user.isMaster ? ' (master user)' : '') + '.';
  }
})();
</script>
</body>
</html>
`;
}
