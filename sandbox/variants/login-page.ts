import type { Variant } from './variant.js';

const AUTHORIZE = /^\/connect\/authorize$/;
const FIELDS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'acr_values'] as const;

/**
 * The login page as many banks serve it: the HTML holds no form, a script builds it (PSU id,
 * password, approve and deny), so only a PSU agent that runs the page's JavaScript can log in.
 * The authorise request's parameters travel as JSON inside the page, with `<` escaped.
 */
function scriptedPage(query: Record<string, string | undefined>): string {
  const params = JSON.stringify(Object.fromEntries(FIELDS.map((k) => [k, query[k] ?? '']))).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Log in to your bank</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label,input{display:block;margin:.5rem 0}button{font-size:1rem;margin:1rem 1rem 0 0;padding:.5rem 1.5rem}</style>
</head><body><h1>Mobile BankID</h1><div id="login">Loading…</div>
<script id="params" type="application/json">${params}</script>
<script>
(function () {
  var params = JSON.parse(document.getElementById('params').textContent);
  var f = document.createElement('fo' + 'rm');
  f.id = 'consent';
  f.method = 'post';
  f.action = '/connect/authorize';
  Object.keys(params).forEach(function (k) {
    var h = document.createElement('input');
    h.type = 'hidden'; h.name = k; h.value = params[k];
    f.appendChild(h);
  });
  [['psu-id', 'username', 'text', 'PSU id'], ['password', 'password', 'password', 'Password']].forEach(function (d) {
    var l = document.createElement('label');
    l.htmlFor = d[0]; l.textContent = d[3];
    var i = document.createElement('input');
    i.id = d[0]; i.name = d[1]; i.type = d[2]; i.autocomplete = 'off';
    f.appendChild(l); f.appendChild(i);
  });
  [['approve', 'Approve'], ['deny', 'Deny']].forEach(function (d) {
    var b = document.createElement('button');
    b.type = 'submit'; b.name = 'decision'; b.value = d[0]; b.id = d[0]; b.textContent = d[1];
    f.appendChild(b);
  });
  var host = document.getElementById('login');
  host.textContent = '';
  host.appendChild(f);
})();
</script></body></html>`;
}

/**
 * Variants for the PSU agents (sca.psuAgent), outside the default self-proof: the form agent
 * cannot read a scripted page, so the variant is only ever run by the agents' own self-test, with
 * the browser agent (selftest/agents/).
 */
const variants: Variant[] = [
  {
    id: 'redirect.login-page-script',
    description:
      'the authorise page is built by JavaScript (no form in the HTML) and asks the PSU to log in (PSU id and password) before approving',
    allows:
      "In the redirect flow the PSU authenticates at the bank through the `scaOAuth` link, and the code is exchanged at `{auth_url}/connect/token` (endpoint section G). (Authentication 4: how the PSU authenticates at the bank is the bank's own)",
    concerns: ['oauth.authorize.approve', 'oauth.token.exchange'],
    warns: [],
    install: (app) => {
      app.addHook('onSend', async (req, reply, payload) => {
        if (req.method !== 'GET' || !AUTHORIZE.test(req.routeOptions.url ?? '') || reply.statusCode !== 200)
          return payload;
        return scriptedPage(req.query as Record<string, string | undefined>);
      });
      // Approving needs the login: a PSU id and a password (any non-empty pair in the sandbox).
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || !AUTHORIZE.test(req.routeOptions.url ?? '')) return;
        const b = (req.body ?? {}) as { username?: string; password?: string; decision?: string };
        if (b.decision === 'approve' && !(b.username?.trim() && b.password?.trim()))
          return reply
            .status(401)
            .type('text/html; charset=utf-8')
            .send('<h1>Log in first</h1><p>PSU id and password are required.</p>');
      });
    },
  },
];

export default variants;
