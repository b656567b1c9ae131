// The ceremony page: static HTML and one small script, no server string in
// either. The script fetches its ceremony's data and shows it with
// textContent only, so a server's name or tool cannot become markup. For an
// approval it computes the challenge itself, as the SHA-256 of the very
// payload text it displays: what it shows and what the passkey signs cannot
// differ.

/** The page's Content-Security-Policy: its own script and data, nothing else. */
export const CEREMONY_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The HTML of every ceremony page. */
export const CEREMONY_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Countersign: confirm with your passkey</title>
<link rel="stylesheet" href="/ceremony.css">
<script src="/ceremony.js" defer></script>
</head>
<body>
<main id="ceremony" data-state="loading">
<h1 id="title">Countersign</h1>
<p id="intro"></p>
<dl id="fields"></dl>
<button id="confirm" type="button" hidden></button>
<p id="status" role="status"></p>
</main>
</body>
</html>
`;

/** The page's style. */
export const CEREMONY_CSS = `body { font: 16px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 44rem; }
main { padding: 0 1rem; }
dt { font-weight: 600; margin-top: .6rem; }
dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; white-space: pre-wrap; }
button { margin-top: 1.2rem; font-size: 1rem; padding: .5rem 1rem; }
`;

/** The page's script (plain browser JavaScript). */
export const CEREMONY_JS = `'use strict';
(() => {
  const main = document.getElementById('ceremony');
  const status = document.getElementById('status');
  const button = document.getElementById('confirm');
  const token = location.pathname.split('/')[2] || '';
  const b64d = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const b64e = (buf) => {
    let s = '';
    for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
    return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  const LABELS = {
    server: 'Server', tool: 'Tool', argumentsHash: 'Arguments (SHA-256)', questionHash: 'Question (SHA-256)',
    answerHash: 'Your answer (SHA-256)', requestStateHash: 'Request state (SHA-256)', nonce: 'Nonce',
    issuedAt: 'Issued', expiresAt: 'Expires', id: 'Approval id', origin: 'Confirmed at', format: 'Format',
  };
  const SERVER_LABELS = { name: 'Server', command: 'Command', url: 'URL' };
  const show = (state, text) => { main.dataset.state = state; status.textContent = text; };
  const field = (label, value) => {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = typeof value === 'string' ? value : JSON.stringify(value);
    document.getElementById('fields').append(dt, dd);
  };
  const send = async (body) => {
    const res = await fetch('/ceremony/' + token + '/result', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const answer = await res.json();
    show(answer.ok ? 'done' : 'refused', answer.message);
  };
  const approve = async (data) => {
    const challenge = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(data.payloadText));
    const cred = await navigator.credentials.get({ publicKey: {
      challenge, rpId: 'localhost', userVerification: 'required', timeout: 60000,
      allowCredentials: data.allowCredentials.map((id) => ({ type: 'public-key', id: b64d(id) })),
    } });
    const r = cred.response;
    await send({ id: cred.id, rawId: b64e(cred.rawId), type: cred.type, clientExtensionResults: {}, response: {
      authenticatorData: b64e(r.authenticatorData), clientDataJSON: b64e(r.clientDataJSON),
      signature: b64e(r.signature), ...(r.userHandle ? { userHandle: b64e(r.userHandle) } : {}),
    } });
  };
  const register = async (data) => {
    const o = data.options;
    const cred = await navigator.credentials.create({ publicKey: {
      ...o, challenge: b64d(o.challenge), user: { ...o.user, id: b64d(o.user.id) },
      excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: b64d(c.id) })),
    } });
    const r = cred.response;
    await send({ id: cred.id, rawId: b64e(cred.rawId), type: cred.type, clientExtensionResults: {}, response: {
      clientDataJSON: b64e(r.clientDataJSON), attestationObject: b64e(r.attestationObject),
      transports: r.getTransports ? r.getTransports() : [],
    } });
  };
  const start = async () => {
    const res = await fetch('/ceremony/' + token + '/data');
    if (!res.ok) return show('gone', await res.text());
    const data = await res.json();
    if (data.kind === 'approve') {
      document.getElementById('intro').textContent = 'Confirm this approval with your passkey. It signs exactly this:';
      const payload = JSON.parse(data.payloadText);
      // The payload arrives in canonical (sorted) order; people read the server and tool first. Keys not known
      // here are shown too, after the rest: the page shows every field it signs.
      const keys = [...new Set([...Object.keys(LABELS).filter((k) => k in payload), ...Object.keys(payload)])];
      for (const key of keys) {
        const value = payload[key];
        if (key === 'server' && value && typeof value === 'object') {
          const inner = [...new Set([...Object.keys(SERVER_LABELS).filter((k) => k in value), ...Object.keys(value)])];
          for (const k of inner) field(SERVER_LABELS[k] || k, value[k]);
        } else field(LABELS[key] || key, value);
      }
      button.textContent = 'Confirm with passkey';
    } else {
      document.getElementById('intro').textContent = 'Register a passkey for Countersign approvals.';
      field('Passkey name', data.name);
      button.textContent = 'Register passkey';
    }
    button.hidden = false;
    show('ready', '');
    button.addEventListener('click', () => {
      button.disabled = true;
      show('working', 'Waiting for your passkey…');
      const run = data.kind === 'approve' ? approve(data) : register(data);
      run.catch((e) => show('failed', String((e && e.message) || e)));
    }, { once: true });
  };
  start().catch((e) => show('failed', String(e && e.message || e)));
})();
`;
