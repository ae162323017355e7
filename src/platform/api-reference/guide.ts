/**
 * The reference's prose: what every operation shares (answers, credentials, errors, paging,
 * limits), said once here rather than repeated under each operation. HTML written by us, with
 * `{base}` standing for the service's own address.
 */
export interface GuideSection {
  id: string;
  title: string;
  html: string;
}

/** How each credential of the document is sent in a curl sample, by its scheme's name. */
export const CURL_CREDENTIALS: Record<string, string[]> = {
  DataKey: ['-H "X-API-Key: $KEY"'],
  DataSecret: ['-H "X-API-Secret: $SECRET"'],
  Bearer: ['-H "Authorization: Bearer $TOKEN"'],
  TenantKey: ['-H "X-API-Key: $TENANT_KEY"'],
  PickupAppToken: ['-H "Authorization: appToken $APP_TOKEN"'],
  ConsoleSession: ['-b "gw_console=$SESSION"', '-H "X-CSRF-Token: $CSRF"'],
};

export const GUIDE: GuideSection[] = [
  {
    id: "start",
    title: "Start here",
    html: `<p>Every operation of the gateway, grouped as in the sidebar. Each shows what it needs, a request and an answer as the
service gives them, and a curl line to paste. <code>npm run dev</code> prints a data-service key and secret, a tenant key and the
console's link; set them once in your shell:</p>
<pre><code>BASE={base}
KEY=svc_sk_…   SECRET=svc_ss_…      # data services (T, I, O), printed by npm run dev
TENANT_KEY=svc_tk_…                 # content API of one tenant (C)
TOKEN=svc_sk_…                      # groups A and D, and the admin API: a key or the JWT of a login
APP_TOKEN=svc_at_…                  # pickup tasks (P): npm run apps:create prints one (docs/pickup.md)</code></pre>
<p>The machine-readable document is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1): generate a client from it.</p>`,
  },
  {
    id: "authentication",
    title: "Authentication and signing",
    html: `<p>Each operation names the credential it takes. There are six kinds:</p>
<table>
<thead><tr><th>credential</th><th>sent as</th><th>for</th></tr></thead>
<tbody>
<tr id="auth-DataKey"><td>Data-service key and secret</td><td><code>X-API-Key: svc_sk_…</code> and <code>X-API-Secret: svc_ss_…</code></td><td>T tax rates, I intelligence, O reference data, the scheduler</td></tr>
<tr id="auth-signed"><td>Data-service key, signed</td><td><code>X-API-Key</code>, <code>X-Timestamp</code>, <code>X-Nonce</code>, <code>X-Signature</code> (the secret never sent)</td><td>the same operations, <a href="#signing">signed</a></td></tr>
<tr id="auth-Bearer"><td>Bearer key or login token</td><td><code>Authorization: Bearer svc_sk_…</code> or the JWT from <code>/auth/callback</code></td><td>A accounts and keys, D mini-programs, the admin API</td></tr>
<tr id="auth-TenantKey"><td>Tenant key</td><td><code>X-API-Key: svc_tk_…</code>, bound to one tenant and some of its sites</td><td>C content delivery and content skills</td></tr>
<tr id="auth-PickupAppToken"><td>Pickup app token</td><td><code>Authorization: appToken &lt;app token&gt;</code>, from <code>POST /api/apps</code></td><td>P pickup tasks</td></tr>
<tr id="auth-ConsoleSession"><td>Console session</td><td>the <code>gw_console</code> cookie of <code>POST /admin/api/session</code>; writes add <code>X-CSRF-Token</code></td><td>the admin API, from the console</td></tr>
</tbody>
</table>
<p>Both <code>X-API-Key</code> credentials use one header: the prefix tells them apart (<code>svc_sk_</code> a data-service key,
<code>svc_tk_</code> a tenant key). A key's scopes limit what it may call (<code>taxrate:read</code>, <code>reference:read</code>,
<code>content:read</code>, <code>miniprogram:write</code> …); a key created without scopes may call everything its kind allows.</p>
<h3 id="signing">Signing a request</h3>
<p>Instead of the secret, send a signature of the request made with it. The string to sign is the method and the path, each on
its own line, then the parameters sorted by name as <code>name=value</code> joined with <code>&amp;</code>, then
<code>timestamp=…&amp;nonce=…</code>. For a GET or a DELETE the parameters are the query's; for a POST the top-level keys of
<code>bizContent</code> (objects and arrays as compact JSON). <code>X-Signature</code> is the lowercase hex HMAC-SHA256 of that
string keyed by the secret; <code>X-Timestamp</code> is epoch milliseconds within 300 s of the server's clock; <code>X-Nonce</code>
is 8 to 64 of <code>A-Z a-z 0-9 - _</code>, accepted once.</p>
<pre><code>TS=$(date +%s%3N); NONCE=$(openssl rand -hex 16)
STRING=$(printf 'GET\\n/std/api/bigdata/taxrate/list\\npage=0&amp;size=5&amp;timestamp=%s&amp;nonce=%s' "$TS" "$NONCE")
SIG=$(printf '%s' "$STRING" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')
curl -s "$BASE/std/api/bigdata/taxrate/list?page=0&amp;size=5" -H "X-API-Key: $KEY" \\
  -H "X-Timestamp: $TS" -H "X-Nonce: $NONCE" -H "X-Signature-Version: 2" -H "X-Signature: $SIG"</code></pre>
<p>Webhooks of the pickup API are signed the other way round, by the gateway, following Standard Webhooks
(<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) with the app's webhook secret.</p>`,
  },
  {
    id: "envelope",
    title: "Answers: the envelopes",
    html: `<p>Each group answers in the shape of the interface it reproduces, the HTTP status always telling success from failure:</p>
<table>
<thead><tr><th>groups</th><th>success</th><th>failure</th></tr></thead>
<tbody>
<tr><td>T, O, P, the scheduler</td><td><code>{ "code": 200, "msg": "success", "data": … }</code></td><td><code>{ "code": 404, "msg": "…", "data": null }</code></td></tr>
<tr><td>I intelligence</td><td>the same, with <code>"timestamp"</code> (epoch seconds)</td><td>the same</td></tr>
<tr><td>C content, D mini-programs</td><td><code>{ "success": true, "data": … }</code></td><td><code>{ "success": false, "error": { "code", "message" } }</code></td></tr>
<tr><td>A accounts</td><td>the record itself</td><td><code>{ "detail": "…" }</code></td></tr>
</tbody>
</table>
<p>The examples under each operation show the whole answer, envelope included. Every answer carries <code>X-Request-Id</code>
(yours when you send one of 1–128 of <code>A-Z a-z 0-9 . _ : -</code>): quote it when you report a problem.</p>`,
  },
  {
    id: "errors",
    title: "Errors",
    html: `<p>A failure answers with its status and the failure envelope of the group; each operation lists the statuses it may
give and what they mean there. The body is one of these, whatever the status:</p>
<pre><code>{ "code": 400, "msg": "size must be at most 100", "data": null }                  // T, I, O, P

{ "success": false,                                                                    // C, D
  "error": { "code": "invalid_request", "message": "siteId is required",
             "fields": [{ "field": "siteId", "message": "siteId is required" }] } }

{ "detail": "Authorization header required" }                                          // A
{ "detail": [{ "loc": ["body", "name"], "msg": "is required" }] }                      // A, 422</code></pre>
<table>
<thead><tr><th>status</th><th>means</th></tr></thead>
<tbody>
<tr><td>400</td><td>a parameter is missing or wrong; the message names it and the rule. Unknown fields are refused by name, never dropped.</td></tr>
<tr><td>401</td><td>no credential, or one that is unknown, revoked, expired, or a signature that does not match</td></tr>
<tr><td>403</td><td>the credential is valid but its scopes or role do not cover the operation</td></tr>
<tr><td>404</td><td>no such record, or not yours: another tenant's site is a 404, never a 403</td></tr>
<tr><td>405</td><td>the path takes other methods, named in <code>Allow</code> and the message (C and D: <code>method_not_allowed</code>)</td></tr>
<tr><td>409</td><td>the request clashes with the record's state (a slug taken, a task still processing)</td></tr>
<tr><td>413</td><td>the body is larger than the operation takes</td></tr>
<tr><td>415</td><td>a body that is not <code>application/json</code> where the operation takes JSON</td></tr>
<tr><td>422</td><td>group A: the body's fields, under <code>detail</code></td></tr>
<tr><td>429</td><td>a <a href="#limits">limit</a> is reached; <code>Retry-After</code> says in how many seconds to try again</td></tr>
<tr><td>502, 503</td><td>a provider the operation needs failed, or is not configured</td></tr>
</tbody>
</table>
<p>An unexpected failure is a 500 that says only <code>Internal server error</code>; the details are logged under its request id.</p>`,
  },
  {
    id: "paging",
    title: "Paging",
    html: `<p>Lists that can be long are paged; each says so in its parameters.</p>
<ul>
<li>T tax rates: <code>?page=</code> from 0 and <code>&amp;size=</code> 1–100 (default 20); the answer holds <code>content</code>,
<code>totalElements</code>, <code>totalPages</code>, <code>number</code> and <code>size</code>.</li>
<li>O reference data: <code>page</code> from 1 and <code>size</code> 1–1000 (default 100) in <code>bizContent</code>; the answer is
<code>{ total, page, size, items }</code>.</li>
<li>C content: <code>?page=</code> from 1 and <code>&amp;size=</code> up to 100 (default 20); the answer is
<code>{ items, total, page, size }</code>, newest first.</li>
<li>P pickup tasks (<code>currPage</code>, <code>total</code>, <code>data</code>) and D's lists (<code>CurrPage</code>, <code>Total</code>, <code>Data</code>) follow the interfaces they reproduce.</li>
</ul>`,
  },
  {
    id: "limits",
    title: "Limits",
    html: `<ul>
<li>Requests per key: a data-service key's plan allows 60 a minute (free), 300 (basic) or 1,000 (enterprise); some operations
add an hourly budget (content generation, the AI skills). Past it the answer is a 429 with <code>Retry-After</code>.</li>
<li>Failed authentication: 10 wrong secrets or signatures on one key, or 30 failures from one address, within a minute, and that
key or address is refused until the minute ends.</li>
<li>Bodies: 1 MiB, except uploads (media and themes), which say their own limit; a larger body is a 413.</li>
<li>The console's own calls have limits sized for people, per member and tenant, apart from the keys' plans.</li>
</ul>`,
  },
  {
    id: "retries",
    title: "Retrying writes",
    html: `<p>The POST writes of groups A, C (admin), D and P take an <code>Idempotency-Key</code> header: a string of 1 to 255 visible
characters (a UUID), new for each write you mean to make. Send a write again with the same key when its answer did not arrive:</p>
<ul>
<li>the same key and body within 24 h, after the first finished: the first answer again, with <code>Idempotent-Replayed: true</code>,
and nothing done twice;</li>
<li>while the first is still running: a 409; retry after it;</li>
<li>the same key with another body: a 422;</li>
<li>a first request that was refused or failed is decided anew.</li>
</ul>
<p>Keys are the caller's own (the user and the key or app that sent them). Uploads take no key.</p>
<pre><code>curl -X POST "$BASE/api/tokens" -H "Authorization: Bearer $TOKEN" -H "Idempotency-Key: $(uuidgen)" \
  -H "Content-Type: application/json" -d '{"name":"nightly"}'</code></pre>`,
  },
];
