import { PAGE_BASE_STYLE, PAGE_HEAD } from '../page-frame.js';

/**
 * The console's pages as Eta templates, as the SCA pages are made (sca-templates.ts): `<%= %>`
 * escapes what it prints, so a name or remittance with HTML in it shows as text; no scripts, no
 * external assets, one inline style sheet. One column that fits a phone and widens on a desk; every
 * control a real link, button or labelled field, with a focus ring that shows.
 */
export const LAYOUT = `${PAGE_HEAD}
<title><%= it.title %> – <%= it.texts.console %></title>
<style>
${PAGE_BASE_STYLE}
.skip { position: absolute; left: -999px; top: 0; background: #fff; color: #12355b; padding: 0.6rem 1rem; z-index: 1; }
.skip:focus { left: 0.5rem; top: 0.5rem; }
header { background: #12355b; color: #fff; padding: 0.9rem 1rem; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; justify-content: space-between; align-items: baseline; }
header .name { font-weight: 600; font-size: 1.1rem; }
header .tpp { font-size: 0.9rem; overflow-wrap: anywhere; }
.sandbox { background: #fff3cd; color: #5c4400; padding: 0.5rem 1rem; font-size: 0.9rem; }
nav ul { list-style: none; margin: 0; padding: 0.4rem 0.6rem; display: flex; flex-wrap: wrap; gap: 0.3rem; background: #dde3ea; }
nav a { display: inline-block; padding: 0.5rem 0.7rem; border-radius: 0.4rem; color: #12355b; font-weight: 600; text-decoration: none; }
nav a[aria-current="page"] { background: #12355b; color: #fff; }
main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 0.7rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
a { color: #0b4a8b; }
:focus-visible { outline: 3px solid #e08a00; outline-offset: 2px; }
.card { background: #fff; border-radius: 0.6rem; padding: 1rem; margin-bottom: 1rem; box-shadow: 0 1px 3px rgba(0,0,0,0.12); }
.list { list-style: none; margin: 0; padding: 0; }
.account + .account, .card-account + .card-account, .snapshot + .snapshot, .scenario + .scenario { border-top: 1px solid #e3e8ee; margin-top: 0.6rem; padding-top: 0.6rem; }
label { display: block; font-weight: 600; margin: 0.8rem 0 0.3rem; }
.row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
input[type=number], select { font-size: 1.05rem; padding: 0.6rem; border: 1px solid #98a4b0; border-radius: 0.4rem; background: #fff; }
input[type=number] { width: 7rem; }
input[type=text] { width: 100%; box-sizing: border-box; font-size: 1.05rem; padding: 0.6rem; border: 1px solid #98a4b0; border-radius: 0.4rem; }
select { max-width: 100%; }
.actions { display: flex; flex-wrap: wrap; gap: 0 0.5rem; }
button { font-size: 1.05rem; padding: 0.75rem 1.1rem; border-radius: 0.4rem; border: 0; cursor: pointer; margin: 0.8rem 0.5rem 0 0; }
.primary { background: #12355b; color: #fff; }
.secondary { background: #dde3ea; color: #1b2530; }
.danger { background: #8f1d18; color: #fff; }
.choice { display: flex; align-items: flex-start; gap: 0.6rem; font-weight: 400; }
.choice input { width: 1.2rem; height: 1.2rem; margin: 0.15rem 0 0; flex: none; }
.error { background: #fde2e1; color: #7a1511; padding: 0.7rem; border-radius: 0.4rem; }
.notice { background: #e3f4e6; color: #14532d; padding: 0.7rem; border-radius: 0.4rem; }
.hint { color: #536170; font-size: 0.9rem; }
dl { display: grid; grid-template-columns: minmax(7rem, auto) 1fr; gap: 0.3rem 0.8rem; margin: 0; }
dt { color: #536170; }
dd { margin: 0; overflow-wrap: anywhere; }
.status { font-weight: 600; }
.amount { font-variant-numeric: tabular-nums; }
code { font-size: 0.95em; overflow-wrap: anywhere; }
pre { background: #1b2530; color: #fff; padding: 0.7rem; border-radius: 0.4rem; overflow-x: auto; }
.history { margin: 0; padding-left: 1.3rem; }
.history li { margin-bottom: 0.5rem; }
.tries { list-style: none; padding-left: 0; }
.history time { display: block; color: #536170; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
.sign-out { margin-top: 1.5rem; }
</style>
</head>
<body>
<a class="skip" href="#main"><%= it.texts.skip %></a>
<header><span class="name"><%= it.texts.console %></span><% if (it.tppId) { %><span class="tpp" id="tpp"><%= it.texts.signedInAs(it.tppId) %></span><% } %></header>
<div class="sandbox"><%= it.texts.sandboxBanner %></div>
<% if (it.nav) { %><nav aria-label="<%= it.texts.nav.label %>"><ul>
<% it.nav.forEach(function (item) { %><li><a href="<%= item.href %>"<% if (item.current) { %> aria-current="page"<% } %>><%= item.label %></a></li><% }) %>
</ul></nav><% } %>
<main id="main" tabindex="-1">
<h1><%= it.title %></h1>
<% if (it.notice) { %><p class="notice" role="status" id="notice"><%= it.notice %></p><% } %>
<% if (it.problem) { %><p class="error" role="alert" id="problem"><%= it.texts.actionFailed %> <%= it.problem %></p><% } %>
<%~ it.body %>
<% if (it.nav) { %><form method="post" action="/console/sign-out" class="sign-out"><input type="hidden" name="_csrf" value="<%= it.csrf %>"><button type="submit" class="secondary" id="sign-out"><%= it.texts.signOut %></button></form><% } %>
</main>
</body>
</html>`;

export const OVERVIEW = `<% layout('@layout', it) %>
<section class="card" aria-labelledby="clock-heading">
<h2 id="clock-heading"><%= it.texts.clock.heading %></h2>
<dl id="clock">
<dt><%= it.texts.clock.now %></dt><dd><time id="clock-now" datetime="<%= it.clock.nowIso %>"><%= it.clock.now %></time></dd>
<dt><%= it.texts.clock.today %></dt><dd id="clock-today"><%= it.clock.today %></dd>
<dt><%= it.texts.clock.ahead %></dt><dd id="clock-offset"><%= it.clock.offset %></dd>
<dt><%= it.texts.clock.batchTimes %></dt><dd><%= it.clock.batchTimes %></dd>
<dt><%= it.texts.clock.nextBatchRun %></dt><dd><time id="next-batch-run" datetime="<%= it.clock.nextBatchRunIso %>"><%= it.clock.nextBatchRun %></time></dd>
</dl>
<p class="hint"><%= it.texts.clock.timeZoneHint %></p>
<form method="post" action="/console/clock">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="amount"><%= it.texts.clock.moveLabel %></label>
<div class="row">
<input type="number" id="amount" name="amount" min="1" max="<%= it.maxAmount %>" value="1" required inputmode="numeric">
<select id="unit" name="unit" aria-label="<%= it.texts.clock.unitLabel %>">
<option value="hours"><%= it.texts.clock.hours %></option>
<option value="days"><%= it.texts.clock.days %></option>
</select>
</div>
<button type="submit" class="primary" id="move-clock"><%= it.texts.clock.move %></button>
<p class="hint"><%= it.texts.clock.moveHint %></p>
</form>
<form method="post" action="/console/batch-runs">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<button type="submit" class="primary" id="run-batch"><%= it.texts.clock.runBatch %></button>
<p class="hint"><%= it.texts.clock.runBatchHint %></p>
</form>
</section>
<%~ it.extra %>
<section class="card" aria-labelledby="reset-heading">
<h2 id="reset-heading"><%= it.texts.reset.heading %></h2>
<p><%= it.texts.reset.hint %></p>
<form method="post" action="/console/reset">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label class="choice"><input type="checkbox" id="reset-confirm" name="confirm" value="yes" required><span><%= it.texts.reset.confirm %></span></label>
<button type="submit" class="danger" id="reset"><%= it.texts.reset.button %></button>
</form>
</section>`;

export const CUSTOMERS = `<% layout('@layout', it) %>
<p><%= it.texts.customers.intro %></p>
<% if (it.customers.length === 0) { %><p class="card" id="no-customers"><%= it.texts.customers.none %></p><% } %>
<ul class="list">
<% it.customers.forEach(function (c) { %>
<li class="card customer" data-customer-number="<%= c.number %>">
<h2><%= c.name %></h2>
<dl><dt><%= it.texts.customers.customerNumber %></dt><dd><%= c.number %> · <%= c.type %></dd></dl>
<h3><%= it.texts.customers.accounts %></h3>
<% if (c.accounts.length === 0) { %><p class="hint"><%= it.texts.customers.noAccounts %></p><% } %>
<ul class="list">
<% c.accounts.forEach(function (a) { %>
<li class="account" data-bban="<%= a.bban %>"><strong><%= a.name %></strong> <%= a.number %>
<dl>
<dt><%= it.texts.customers.iban %></dt><dd><%= a.iban %></dd>
<dt><%= it.texts.customers.balance %></dt><dd class="amount balance"><%= a.balance %></dd>
<dt><%= it.texts.customers.creditLine %></dt><dd class="amount"><%= a.creditLine %></dd>
</dl></li>
<% }) %>
</ul>
<% if (c.cards.length > 0) { %>
<h3><%= it.texts.customers.cards %></h3>
<ul class="list">
<% c.cards.forEach(function (k) { %>
<li class="card-account"><strong><%= k.name %></strong> <%= k.number %>
<dl>
<dt><%= it.texts.customers.balance %></dt><dd class="amount"><%= k.balance %></dd>
<dt><%= it.texts.customers.creditLimit %></dt><dd class="amount"><%= k.creditLimit %></dd>
</dl></li>
<% }) %>
</ul>
<% } %>
</li>
<% }) %>
</ul>
<% if (it.more) { %><p class="hint"><%= it.more %></p><% } %>`;

export const PAYMENTS = `<% layout('@layout', it) %>
<p><%= it.intro %></p>
<% if (it.payments.length === 0) { %><p class="card" id="no-payments"><%= it.texts.payments.none %></p><% } %>
<ul class="list" id="payments">
<% it.payments.forEach(function (p) { %>
<li class="card payment" data-payment-id="<%= p.id %>" data-status="<%= p.status %>">
<h2><a href="<%= p.href %>"><%= p.creditor %> · <span class="amount"><%= p.amount %></span></a></h2>
<dl>
<dt><%= it.texts.payments.status %></dt><dd class="status"><%= p.status %> <span class="hint"><%= p.statusText %></span></dd>
<dt><%= it.texts.payments.product %></dt><dd><%= p.product %></dd>
<dt><%= it.texts.payments.from %></dt><dd><%= p.from %></dd>
<dt><%= it.texts.payments.created %></dt><dd><time datetime="<%= p.createdIso %>"><%= p.created %></time></dd>
</dl>
</li>
<% }) %>
</ul>`;

export const PAYMENT = `<% layout('@layout', it) %>
<p><a href="/console/payments"><%= it.texts.payments.back %></a></p>
<section class="card" aria-labelledby="payment-heading" id="payment" data-status="<%= it.p.status %>">
<h2 id="payment-heading"><%= it.p.creditor %> · <span class="amount"><%= it.p.amount %></span></h2>
<dl>
<dt><%= it.texts.payments.status %></dt><dd class="status" id="payment-status"><%= it.p.status %> <span class="hint"><%= it.p.statusText %></span></dd>
<% if (it.p.reason) { %><dt><%= it.texts.payments.reason %></dt><dd id="payment-reason"><%= it.p.reason %></dd><% } %>
<dt>paymentId</dt><dd><code><%= it.p.id %></code></dd>
<dt><%= it.texts.payments.product %></dt><dd><%= it.p.product %></dd>
<dt><%= it.texts.payments.from %></dt><dd><%= it.p.from %></dd>
<dt><%= it.texts.payments.to %></dt><dd><%= it.p.to %></dd>
<dt><%= it.texts.payments.fee %></dt><dd class="amount"><%= it.p.fee %></dd>
<% if (it.p.executionDate) { %><dt><%= it.texts.payments.executionDate %></dt><dd><%= it.p.executionDate %></dd><% } %>
<% if (it.p.basketId) { %><dt><%= it.texts.payments.basket %></dt><dd><code><%= it.p.basketId %></code></dd><% } %>
</dl>
</section>
<section class="card" aria-labelledby="history-heading">
<h2 id="history-heading"><%= it.texts.payments.history %></h2>
<p class="hint"><%= it.texts.payments.historyHint %></p>
<ol class="history" id="history">
<% it.events.forEach(function (e) { %><li data-kind="<%= e.kind %>"><time datetime="<%= e.atIso %>"><%= e.at %></time><%= e.text %><% if (e.reason) { %><br><span class="hint"><%= e.reason %></span><% } %></li><% }) %>
</ol>
</section>`;

export const CONSENTS = `<% layout('@layout', it) %>
<p><%= it.intro %></p>
<% if (it.consents.length === 0) { %><p class="card" id="no-consents"><%= it.texts.consents.none %></p><% } %>
<ul class="list" id="consents">
<% it.consents.forEach(function (c) { %>
<li class="card consent" data-status="<%= c.status %>">
<h2><%= c.status %> <span class="hint"><%= c.statusText %></span></h2>
<dl>
<dt><%= it.texts.consents.customer %></dt><dd><%= c.customer %></dd>
<dt><%= it.texts.consents.shares %></dt><dd><% if (c.shared.length === 0) { %><%= it.texts.consents.nothingShared %><% } else { %><ul class="list"><% c.shared.forEach(function (s) { %><li><%= s %></li><% }) %></ul><% } %></dd>
<% if (c.validUntil) { %><dt><%= it.texts.consents.validUntil %></dt><dd><time datetime="<%= c.validUntilIso %>"><%= c.validUntil %></time></dd><% } %>
<% if (c.scaAt) { %><dt><%= it.texts.consents.scaAt %></dt><dd><%= c.scaAt %></dd><% } %>
<dt><%= it.texts.consents.created %></dt><dd><%= c.created %></dd>
<dt><%= it.texts.consents.session %></dt><dd><code><%= c.session %></code></dd>
</dl>
</li>
<% }) %>
</ul>`;

export const MESSAGE = `<% layout('@layout', it) %>
<div class="card" id="message" data-message="<%= it.message %>">
<p><%= it.text %></p>
<% if (it.howTo) { %><p><%= it.texts.howToOpen %></p>
<pre><code>npm run -s tpp -- console</code></pre><% } %>
<% if (it.goOn) { %><p><a href="/console" id="go-on"><%= it.texts.goOn %></a></p><% } %>
<% if (it.back) { %><p><a href="/console" id="back"><%= it.texts.backToConsole %></a></p><% } %>
</div>`;

export const SNAPSHOTS = `<% layout('@layout', it) %>
<p><%= it.t.intro %></p>
<section class="card" aria-labelledby="save-heading">
<h2 id="save-heading"><%= it.t.saveHeading %></h2>
<form method="post" action="/console/snapshots">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="snapshot-name"><%= it.t.nameLabel %></label>
<input type="text" id="snapshot-name" name="name" maxlength="<%= it.nameMax %>" autocomplete="off" aria-describedby="snapshot-name-hint">
<p class="hint" id="snapshot-name-hint"><%= it.t.nameHint %></p>
<button type="submit" class="primary" id="save-snapshot"><%= it.t.save %></button>
</form>
</section>
<section class="card" aria-labelledby="snapshots-heading">
<h2 id="snapshots-heading"><%= it.listHeading %></h2>
<p class="hint"><%= it.t.restoreHint %></p>
<% if (it.snapshots.length === 0) { %><p id="no-snapshots"><%= it.t.none %></p><% } %>
<ul class="list" id="snapshots">
<% it.snapshots.forEach(function (s) { %>
<li class="snapshot" data-snapshot-id="<%= s.id %>">
<h3><%= s.name %></h3>
<dl>
<dt><%= it.t.saved %></dt><dd><time datetime="<%= s.savedIso %>"><%= s.saved %></time></dd>
<dt><%= it.t.bankTime %></dt><dd><%= s.bankTime %></dd>
<dt><%= it.t.rows %></dt><dd><%= s.rows %></dd>
<dt><%= it.t.size %></dt><dd><%= s.size %></dd>
</dl>
<div class="actions">
<form method="post" action="<%= s.restore %>"><input type="hidden" name="_csrf" value="<%= it.csrf %>"><button type="submit" class="primary restore" aria-label="<%= it.t.restore %>: <%= s.name %>, <%= s.saved %>"><%= it.t.restore %></button></form>
<form method="post" action="<%= s.remove %>"><input type="hidden" name="_csrf" value="<%= it.csrf %>"><button type="submit" class="secondary delete" aria-label="<%= it.t.delete %>: <%= s.name %>, <%= s.saved %>"><%= it.t.delete %></button></form>
</div>
</li>
<% }) %>
</ul>
</section>`;

export const SCENARIOS = `<% layout('@layout', it) %>
<p><%= it.t.intro %></p>
<section class="card" aria-labelledby="armed-heading">
<h2 id="armed-heading"><%= it.t.armedHeading %></h2>
<% if (it.armed.length === 0) { %><p id="no-scenarios"><%= it.t.none %></p><% } %>
<ul class="list" id="scenarios">
<% it.armed.forEach(function (a) { %>
<li class="scenario" data-kind="<%= a.kind %>">
<h3><%= a.name %> <span class="hint"><%= a.kind %></span></h3>
<dl>
<% a.entries.forEach(function (e) { %><dt><%= e.label %></dt><dd><%= e.value %></dd><% }) %>
</dl>
<form method="post" action="<%= a.disarm %>"><input type="hidden" name="_csrf" value="<%= it.csrf %>"><button type="submit" class="secondary disarm" aria-label="<%= it.t.disarm %>: <%= a.name %>"><%= it.t.disarm %></button></form>
</li>
<% }) %>
</ul>
</section>
<section class="card" aria-labelledby="arm-heading">
<h2 id="arm-heading"><%= it.t.armHeading %></h2>
<form method="get" action="/console/scenarios">
<label for="kind"><%= it.t.kindLabel %></label>
<div class="row">
<select id="kind" name="kind">
<% it.kinds.forEach(function (k) { %><option value="<%= k.value %>"<% if (k.selected) { %> selected<% } %>><%= k.label %></option><% }) %>
</select>
<button type="submit" class="secondary" id="choose-kind"><%= it.t.choose %></button>
</div>
</form>
<% if (it.form) { %>
<form method="post" action="/console/scenarios" id="arm-form">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<input type="hidden" name="kind" value="<%= it.form.kind %>">
<h3><%= it.form.name %></h3>
<p><%= it.form.text %></p>
<% if (it.form.matchHint) { %><p class="hint"><%= it.form.matchHint %></p><% } %>
<% it.form.fields.forEach(function (f) { %>
<label for="field-<%= f.name %>"><%= f.label %></label>
<% if (f.type === 'select') { %><select id="field-<%= f.name %>" name="<%= f.name %>"<% if (f.hint) { %> aria-describedby="hint-<%= f.name %>"<% } %>><% f.options.forEach(function (o) { %><option value="<%= o.value %>"<% if (o.selected) { %> selected<% } %>><%= o.label %></option><% }) %></select>
<% } else if (f.type === 'number') { %><input type="number" id="field-<%= f.name %>" name="<%= f.name %>" min="<%= f.min %>" max="<%= f.max %>" value="<%= f.value %>" inputmode="numeric"<% if (f.hint) { %> aria-describedby="hint-<%= f.name %>"<% } %>>
<% } else { %><input type="text" id="field-<%= f.name %>" name="<%= f.name %>" maxlength="<%= f.maxLength %>" value="<%= f.value %>" autocomplete="off"<% if (f.hint) { %> aria-describedby="hint-<%= f.name %>"<% } %>>
<% } %>
<% if (f.hint) { %><p class="hint" id="hint-<%= f.name %>"><%= f.hint %></p><% } %>
<% if (f.name === 'times') { %><label class="choice"><input type="checkbox" id="field-unlimited" name="unlimited" value="yes"><span><%= it.t.unlimited %></span></label><% } %>
<% }) %>
<button type="submit" class="primary" id="arm-scenario"><%= it.t.arm %></button>
</form>
<% } %>
</section>`;

export const NOTIFICATIONS = `<% layout('@layout', it) %>
<p><%= it.intro %></p>
<% if (it.notifications.length === 0) { %><p class="card" id="no-notifications"><%= it.t.none %></p><% } %>
<ul class="list" id="notifications">
<% it.notifications.forEach(function (n) { %>
<li class="card notification" data-event-id="<%= n.eventId %>" data-state="<%= n.state %>" data-status="<%= n.status %>">
<h2><%= n.statusKind %> <span class="status"><%= n.status %></span><% if (n.last) { %> · last<% } %></h2>
<dl>
<dt><%= it.t.state %></dt><dd class="state"><%= n.stateText %></dd>
<dt><%= it.t.eventId %></dt><dd><code><%= n.eventId %></code></dd>
<dt><%= it.t.eventType %></dt><dd><%= n.eventType %></dd>
<dt><%= it.t.resource %></dt><dd><code><%= n.resource %></code></dd>
<% if (n.subject) { %><dt><%= it.t.subject %></dt><dd><code><%= n.subject %></code></dd><% } %>
<dt><%= it.t.destination %></dt><dd><code><%= n.uri %></code></dd>
<dt><%= it.t.occurred %></dt><dd><time datetime="<%= n.occurredIso %>"><%= n.occurred %></time></dd>
</dl>
<h3><%= it.t.tries %></h3>
<% if (n.tries.length === 0) { %><p class="hint"><%= it.t.noTries %></p><% } %>
<ul class="history tries">
<% n.tries.forEach(function (a) { %><li class="try" data-ok="<%= a.ok %>"><time datetime="<%= a.atIso %>"><%= a.at %></time><%= a.label %>: <strong class="outcome"><%= a.outcome %></strong> · <span class="duration"><%= a.duration %></span><% if (a.error) { %><br><span class="hint error-text"><%= a.error %></span><% } %>
<% if (a.answer) { %><details><summary><%= it.t.answer %></summary><pre><code class="answer"><%= a.answer %></code></pre></details><% } %></li><% }) %>
</ul>
<form method="post" action="<%= n.resend %>"><input type="hidden" name="_csrf" value="<%= it.csrf %>"><button type="submit" class="secondary resend" aria-label="<%= it.t.sendAgain %>: <%= n.eventId %>" aria-describedby="resend-hint"><%= it.t.sendAgain %></button></form>
</li>
<% }) %>
</ul>
<% if (it.notifications.length > 0) { %><p class="hint" id="resend-hint"><%= it.t.sendAgainHint %></p><% } %>`;
