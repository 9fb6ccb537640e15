import { PAGE_BASE_STYLE, PAGE_HEAD } from '../page-frame.js';

/**
 * The SCA pages as Eta templates. `<%= %>` escapes what it prints, so a creditor name or remittance
 * text with HTML in it shows as text. No scripts, no external assets: one inline style sheet.
 */
export const LAYOUT = `${PAGE_HEAD}
<title><%= it.title %> – <%= it.bank %></title>
<style>
${PAGE_BASE_STYLE}
header { background: #12355b; color: #fff; padding: 0.9rem 1rem; font-weight: 600; font-size: 1.1rem; }
.sandbox { background: #fff3cd; color: #5c4400; padding: 0.5rem 1rem; font-size: 0.9rem; }
main { max-width: 34rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; margin: 0.5rem 0 1rem; }
.card { background: #fff; border-radius: 0.6rem; padding: 1rem; margin-bottom: 1rem; box-shadow: 0 1px 3px rgba(0,0,0,0.12); }
label { display: block; font-weight: 600; margin: 0.8rem 0 0.3rem; }
input[type=text], input[type=password] { width: 100%; box-sizing: border-box; font-size: 1.1rem; padding: 0.7rem; border: 1px solid #98a4b0; border-radius: 0.4rem; }
button { font-size: 1.05rem; padding: 0.8rem 1.2rem; border-radius: 0.4rem; border: 0; cursor: pointer; margin: 0.8rem 0.5rem 0 0; }
.primary { background: #12355b; color: #fff; }
.secondary { background: #dde3ea; color: #1b2530; }
.error { background: #fde2e1; color: #7a1511; padding: 0.7rem; border-radius: 0.4rem; }
.note { background: #e7f0fb; color: #12355b; padding: 0.7rem; border-radius: 0.4rem; }
.hint { color: #536170; font-size: 0.9rem; }
dl { display: grid; grid-template-columns: minmax(6rem, auto) 1fr; gap: 0.3rem 0.8rem; margin: 0; }
dt { color: #536170; }
dd { margin: 0; overflow-wrap: anywhere; }
.entries { margin: 0.5rem 0 0; padding-left: 1.2rem; }
.choice { display: flex; align-items: flex-start; gap: 0.8rem; font-weight: 400; cursor: pointer; margin: 0 0 0.7rem; }
.choice input { width: 1.3rem; height: 1.3rem; margin: 0.15rem 0 0; flex: none; }
.choice .account-name { font-weight: 600; }
</style>
</head>
<body>
<header><%= it.bank %></header>
<% if (it.sandbox) { %><div class="sandbox"><%= it.sandboxBanner %></div><% } %>
<main>
<h1><%= it.title %></h1>
<%~ it.body %>
</main>
</body>
</html>`;

export const LOGIN = `<% layout('@layout', it) %>
<div class="card">
<p><%= it.purpose %></p>
<p><strong><%= it.methodLabel %>:</strong> <%= it.method %></p>
<% if (it.methodUnavailable) { %><p class="note"><%= it.methodUnavailable %></p><% } %>
<% if (it.biometric) { %><p class="note" id="biometric"><%= it.biometric %></p><% } %>
<% if (it.failedAttempt) { %><p class="error" role="alert"><%= it.failedAttempt %></p><% } %>
<% if (it.loginDisabled) { %><p class="error"><%= it.loginDisabled %></p><% } else { %>
<form method="post" action="<%= it.action %>">
<input type="hidden" name="step" value="<%= it.step %>">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="customerNumber"><%= it.customerNumberLabel %></label>
<input type="text" id="customerNumber" name="customerNumber" inputmode="numeric" autocomplete="username" required maxlength="20">
<label for="code"><%= it.codeLabel %></label>
<input type="password" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="12">
<button type="submit" class="primary" id="log-in"><%= it.logIn %></button>
<button type="submit" name="decision" value="cancel" class="secondary" id="cancel" formnovalidate><%= it.cancel %></button>
</form>
<% } %>
<% if (it.codeHint) { %><p class="hint"><%= it.codeHint %></p><% } %>
</div>`;

export const CONFIRM = `<% layout('@layout', it) %>
<p><%= it.purpose %></p>
<p><%= it.signer %> <%= it.context %></p>
<% it.payments.forEach(function (p) { %>
<div class="card payment" data-payment-id="<%= p.id %>">
<% if (p.problem) { %><p class="error" role="alert"><%= it.cannotApprove %> <%= p.problem %></p><% } %>
<dl>
<dt><%= it.labels.debtorAccount %></dt><dd><%= p.debtorAccount %></dd>
<dt><%= it.labels.creditor %></dt><dd><% if (p.creditors.length === 1) { %><span class="creditor-name"><%= p.creditors[0].name %></span><br><%= p.creditors[0].account %><% } else { %><%= p.entriesLabel %><ul class="entries"><% p.creditors.forEach(function (c) { %><li><span class="creditor-name"><%= c.name %></span>, <%= c.account %>: <%= c.amount %></li><% }) %></ul><% } %></dd>
<dt><%= it.labels.amount %></dt><dd class="amount"><%= p.amount %></dd>
<dt><%= it.labels.fee %></dt><dd><%= p.fee %></dd>
<% if (p.schedule) { %><% p.schedule.forEach(function (row) { %><dt><%= row.label %></dt><dd class="<%= row.name %>"><%= row.value %></dd><% }) %><% } else { %><dt><%= it.labels.executionDate %></dt><dd><%= p.executionDate %></dd><% } %>
<% if (p.remittance) { %><dt><%= it.labels.message %></dt><dd class="remittance"><%= p.remittance %></dd><% } %>
</dl>
</div>
<% }) %>
<form method="post" action="<%= it.action %>">
<input type="hidden" name="step" value="<%= it.step %>">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<% if (it.canApprove) { %><button type="submit" name="decision" value="approve" class="primary" id="approve"><%= it.approve %></button><% } %>
<button type="submit" name="decision" value="decline" class="secondary" id="decline"><%= it.decline %></button>
</form>`;

export const MESSAGE = `<% layout('@layout', it) %>
<div class="card" id="outcome" data-outcome="<%= it.outcome %>">
<p><%= it.text %></p>
<% if (it.returnUrl) { %><p><a href="<%= it.returnUrl %>" id="return"><%= it.returnTo %></a></p><% } %>
</div>`;

export const CHOOSE = `<% layout('@layout', it) %>
<p><%= it.purpose %></p>
<p><%= it.signer %> <%= it.context %></p>
<p><%= it.intro %></p>
<% if (it.noneChosen) { %><p class="error" role="alert"><%= it.noneChosen %></p><% } %>
<form method="post" action="<%= it.action %>">
<input type="hidden" name="step" value="<%= it.step %>">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<% if (it.accounts.length === 0) { %><p class="note" id="no-accounts"><%= it.noAccounts %></p><% } %>
<% it.accounts.forEach(function (a) { %>
<label class="card choice" data-account-id="<%= a.id %>"><input type="checkbox" name="account" value="<%= a.id %>"<% if (a.checked) { %> checked<% } %>><span><span class="account-name"><%= a.name %></span><br><span class="account-number"><%= a.number %></span> <%= a.currency %><% if (a.card) { %> · <%= a.card %><% } %></span></label>
<% }) %>
<% if (it.notShown) { %><p class="hint"><%= it.notShown %></p><% } %>
<% if (it.accounts.length > 0) { %><button type="submit" name="decision" value="approve" class="primary" id="share"><%= it.share %></button><% } %>
<button type="submit" name="decision" value="decline" class="secondary" id="decline"><%= it.decline %></button>
<% if (it.withdraw) { %><p class="hint" id="withdraw-hint"><%= it.withdrawHint %></p>
<button type="submit" name="decision" value="withdraw" class="secondary" id="withdraw"><%= it.withdraw %></button><% } %>
</form>`;
