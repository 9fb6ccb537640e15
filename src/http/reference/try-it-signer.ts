/**
 * The script /docs runs in sandbox mode so that "Try it out" answers: it asks the sandbox for a TPP
 * certificate (POST /v1/sandbox/certificates, unsigned) and signs each request to /v1 in the browser
 * with WebCrypto, as the toolkit's signRequest does: X-Request-ID, Digest of the body, the
 * certificate header and the draft-cavage Signature over the headers of the signed set it carries.
 * Date is a header a browser may not set, and the specification signs it only where available.
 *
 * Opened from the link `tpp docs` prints (#bind=...), it makes a key in the browser, binds it to that
 * TPP's sandbox bank with the link, and keeps it in IndexedDB (non-extractable): the page then signs
 * as that TPP, in the bank the toolkit and the console show, after a reload too. Otherwise the page
 * is a TPP of its own: its organisation identifier is kept in localStorage, so the same sandbox bank
 * answers after a reload; its certificate and key only for the tab's session. Production serves no
 * such script.
 * Plain ES2020 in a string: it runs in the browser, not in Node, and is served as it is written.
 */
export const TRY_IT_SIGNER_JS = String.raw`(function () {
  'use strict';
  var ORGANISATION_KEY = 'psd2-sandbox-try-it-organisation';
  var CREDENTIALS_KEY = 'psd2-sandbox-try-it-credentials';
  var BOUND_DATABASE = 'psd2-sandbox-try-it';
  var ROLES = ['PSP_PI', 'PSP_AI', 'PSP_IC'];
  var SIGNED_WHEN_PRESENT = ['date', 'digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri'];
  var THE_PAGE_SETS = ['date', 'digest', 'x-request-id', 'tpp-signature-certificate', 'signature'];
  var credentials;
  // Read as the script loads, before Swagger UI's deep linking takes the fragment over. In the
  // fragment, which the browser never sends, the link's token stays out of every log; it is used
  // once, so a reload must not send it again.
  var LINK_TOKEN = (function () {
    var match = /^#bind=([^&]+)$/.exec(location.hash);
    if (!match) return null;
    history.replaceState(null, '', location.pathname + location.search);
    return decodeURIComponent(match[1]);
  })();

  function base64(buffer) {
    var bytes = new Uint8Array(buffer);
    var text = '';
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text);
  }
  function pemBody(pem) {
    return pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  }
  function bytesOf(base64Text) {
    var text = atob(base64Text);
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  }
  function organisationId() {
    var saved = localStorage.getItem(ORGANISATION_KEY);
    if (saved) return saved;
    var digits = Array.from(crypto.getRandomValues(new Uint32Array(9)), function (n) { return n % 10; }).join('');
    var made = 'PSDNO-FSA-' + digits;
    localStorage.setItem(ORGANISATION_KEY, made);
    return made;
  }
  function sandboxAddress(path) {
    return new URL('../' + path, new URL('./', location.href)).toString();
  }

  // A key bound to a TPP's bank by a "tpp docs" link: kept in IndexedDB, whose CryptoKey the page
  // can use but never read (made non-extractable), so the page signs as that TPP after a reload too.
  function boundStore(mode, work) {
    return new Promise(function (resolve, reject) {
      var opening = indexedDB.open(BOUND_DATABASE, 1);
      opening.onupgradeneeded = function () { opening.result.createObjectStore('keys'); };
      opening.onerror = function () { reject(opening.error); };
      opening.onsuccess = function () {
        var request = work(opening.result.transaction('keys', mode).objectStore('keys'));
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      };
    });
  }
  function pem(label, buffer) {
    var lines = base64(buffer).match(/.{1,64}/g).join('\n');
    return '-----BEGIN ' + label + '-----\n' + lines + '\n-----END ' + label + '-----\n';
  }
  /** The sandbox's unsigned operations: the certificate, and a link's binding. */
  function postJson(path, body) {
    return fetch(sandboxAddress(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  }
  async function certificate(request) {
    var response = await postJson('v1/sandbox/certificates', request);
    if (response.status !== 201) throw await failure(response, 'the sandbox issued no certificate');
    return response.json();
  }
  async function failure(response, what) {
    var answer = await response.json().catch(function () { return {}; });
    var why = (answer.tppMessages || []).map(function (m) { return m.text; }).join('; ');
    return new Error(what + ' (' + response.status + '): ' + why);
  }

  /** Opened from a "tpp docs" link: a key made here, bound to the bank of the TPP that asked for the link. */
  async function bindFromLink(token) {
    var pair = await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      false, ['sign', 'verify']);
    var publicKey = pem('PUBLIC KEY', await crypto.subtle.exportKey('spki', pair.publicKey));
    var response = await postJson('v1/sandbox/docs-links/bind', { token: token, publicKey: publicKey });
    if (response.status !== 201 && response.status !== 200) throw await failure(response, 'the link bound no key');
    var bound = { organisationId: (await response.json()).organizationIdentifier, publicKey: publicKey, privateKey: pair.privateKey };
    await boundStore('readwrite', function (keys) { return keys.put(bound, 'bound'); });
    return bound;
  }

  async function issue() {
    var token = LINK_TOKEN;
    LINK_TOKEN = null;
    var bound = token ? await bindFromLink(token) : await boundStore('readonly', function (keys) { return keys.get('bound'); });
    if (bound) {
      // A certificate over the bound key at each visit: the key opens the bank, whatever certificate carries it.
      var issued = await certificate({ organizationIdentifier: bound.organisationId, name: 'Try it out', roles: ROLES, publicKey: bound.publicKey });
      return { organisationId: bound.organisationId, certificate: pemBody(issued.certificate), keyId: issued.keyId, key: bound.privateKey, bound: true };
    }
    var saved = JSON.parse(sessionStorage.getItem(CREDENTIALS_KEY) || 'null');
    if (!saved) {
      var made = await certificate({ organizationIdentifier: organisationId(), name: 'Try it out', roles: ROLES });
      saved = { organisationId: organisationId(), certificate: made.certificate, privateKey: made.privateKey, keyId: made.keyId };
      sessionStorage.setItem(CREDENTIALS_KEY, JSON.stringify(saved));
    }
    var key = await crypto.subtle.importKey(
      'pkcs8', bytesOf(pemBody(saved.privateKey)), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
    return { organisationId: saved.organisationId, certificate: pemBody(saved.certificate), keyId: saved.keyId, key: key, bound: false };
  }

  function isSigned(url) {
    return url.origin === location.origin && /\/v1\//.test(url.pathname) &&
      !/\/v1\/(sandbox\/certificates|sandbox\/docs-links\/bind|openapi\.json)$/.test(url.pathname);
  }

  window.psd2SignRequest = async function (request) {
    var url = new URL(request.url, location.href);
    if (!isSigned(url)) return request;
    if (!window.crypto || !crypto.subtle) {
      throw new Error('signing in the browser needs a secure context: open /docs over https or at localhost');
    }
    credentials = credentials || issue();
    var tpp = await credentials;
    var headers = {};
    Object.keys(request.headers || {}).forEach(function (name) {
      if (THE_PAGE_SETS.indexOf(name.toLowerCase()) < 0) headers[name.toLowerCase()] = request.headers[name];
    });
    headers['x-request-id'] = crypto.randomUUID();
    var method = (request.method || 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      var body = request.body == null ? '' : String(request.body);
      request.body = body === '' ? undefined : body;
      headers['digest'] = 'SHA-256=' + base64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
    }
    headers['tpp-signature-certificate'] = tpp.certificate;
    var names = SIGNED_WHEN_PRESENT.filter(function (name) { return headers[name] !== undefined; });
    var signingString = names.map(function (name) { return name + ': ' + headers[name]; }).join('\n');
    var signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', tpp.key, new TextEncoder().encode(signingString));
    headers['signature'] = 'keyId="' + tpp.keyId + '",algorithm="rsa-sha256",headers="' + names.join(' ') +
      '",signature="' + base64(signature) + '"';
    request.headers = headers;
    return request;
  };

  function banner(text, failed) {
    var note = document.getElementById('sandbox-signing') || document.createElement('div');
    note.id = 'sandbox-signing';
    note.setAttribute('data-state', failed ? 'failed' : 'ready');
    note.style.cssText = 'padding:10px 20px;font:14px sans-serif;background:' + (failed ? '#fde2e1' : '#fff3cd') + ';color:#3b3b3b';
    note.textContent = text;
    var root = document.getElementById('swagger-ui');
    if (!note.parentNode && root) root.parentNode.insertBefore(note, root);
  }

  window.addEventListener('load', function () {
    credentials = credentials || issue();
    credentials.then(function (tpp) {
      if (tpp.bound) return banner('Sandbox: "Try it out" signs as ' + tpp.organisationId + ', with a key this browser made and "tpp docs" bound to its sandbox bank: ' +
        'the bank "tpp" and "tpp console" show. To sign a payment or consent, open the scaRedirect link of an answer in a new tab: customer number 13039319955, code 123456.', false);
      banner('Sandbox: "Try it out" signs each request in this browser with a certificate the sandbox issued to ' +
        tpp.organisationId + ' (roles ' + ROLES.join(', ') + '); its sandbox bank holds the default customers, such as Ola Nordmann (X-PSU-IDENTITY 13039319955). ' +
        'To sign a payment or consent, open the scaRedirect link of an answer in a new tab: customer number 13039319955, code 123456.', false);
    }, function (error) {
      credentials = undefined;
      banner('Sandbox: "Try it out" cannot sign requests: ' + error.message, true);
    });
  });
})();
`;
