import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNotificationUri, judgeNotificationUri } from '../../../src/domain/notifications/notification-uri.js';
import { certificateDomainNames, coversHost } from '../../../src/domain/notifications/certificate-domain.js';

const NAMES = ['Test TPP AS', 'tpp.example', '*.hooks.tpp.example'];
const judge = (uri: string, sandbox = false, names: readonly string[] = NAMES) =>
  judgeNotificationUri(uri, names, sandbox);
const reasonOf = (uri: string, sandbox = false): string => {
  const judged = judge(uri, sandbox);
  assert.equal(judged.compliant, false, uri);
  return judged.compliant ? '' : judged.reason;
};

describe('TPP-Notification-URI: whether it is a URI at all (a 400 otherwise)', () => {
  it('takes absolute URIs of any scheme, with ports, queries, userinfo and a fragment', () => {
    for (const uri of [
      'https://tpp.example/n',
      'http://localhost:8080/hook',
      'ftp://tpp.example/x',
      'https://tpp.example:8443/a?b=c',
      'https://tpp.example@evil.example/',
      'https://tpp.example/x#frag',
      'https://xn--bcher-kva.tpp.example/',
      'https://[::1]/x',
    ])
      assert.equal(isNotificationUri(uri), true, uri);
  });

  it('refuses what is no absolute URI: relative, spaces, non-ASCII, a broken %, two #, a port over 65535', () => {
    for (const value of [
      '/relative/path',
      'tpp.example/n',
      'https://tpp.example/a b',
      'https://bücher.tpp.example/',
      'https://tpp.example/%zz',
      'https://tpp.example/#a#b',
      'https://tpp.example:99999/',
      'https://a, https://b',
      '',
    ])
      assert.equal(isNotificationUri(value), false, value);
  });
});

describe('TPP-Notification-URI: whether the bank calls it', () => {
  it('calls https in the domain of an exact certificate name, and any name under it (Berlin Group example)', () => {
    assert.deepEqual(judge('https://tpp.example/n'), { compliant: true, uri: 'https://tpp.example/n' });
    assert.equal(judge('https://notifications.tpp.example/psd2').compliant, true);
    assert.equal(judge('https://a.b.tpp.example/').compliant, true);
  });

  it('counts a wildcard for exactly one label: *.hooks.tpp.example covers a.hooks.tpp.example only', () => {
    const names = ['*.hooks.example'];
    assert.equal(judge('https://a.hooks.example/', false, names).compliant, true);
    assert.equal(judge('https://hooks.example/', false, names).compliant, false);
    assert.equal(judge('https://a.b.hooks.example/', false, names).compliant, false);
  });

  it('keeps the URI in the form it is called: host in lower case, trailing dot compared away, port kept', () => {
    assert.deepEqual(judge('https://NOTIFY.TPP.Example:8443/X'), {
      compliant: true,
      uri: 'https://notify.tpp.example:8443/X',
    });
    assert.equal(judge('https://tpp.example./n').compliant, true);
  });

  it('compares an internationalised host in its xn-- form', () => {
    assert.equal(judge('https://xn--bcher-kva.tpp.example/').compliant, true);
    assert.equal(judge('https://x/', false, ['xn--bcher-kva.example']).compliant, false);
    assert.equal(judge('https://xn--bcher-kva.example/', false, ['xn--bcher-kva.example']).compliant, true);
  });

  it('does not call a host outside the domain, and says which names the certificate covers', () => {
    const reason = reasonOf('https://evil.example/n');
    assert.match(reason, /evil\.example is outside the domain/);
    assert.match(reason, /tpp\.example, \*\.hooks\.tpp\.example/);
    // A name that merely ends the same way is not under it.
    assert.match(reasonOf('https://eviltpp.example/'), /outside/);
  });

  it('is not fooled by userinfo: https://tpp.example@evil.example names evil.example', () => {
    assert.match(reasonOf('https://tpp.example@evil.example/'), /userinfo/);
    assert.match(reasonOf('https://user:pw@tpp.example/'), /userinfo/);
  });

  it('does not call http, nor IP literals, nor a URI with a fragment, in production', () => {
    assert.match(reasonOf('http://tpp.example/n'), /scheme is http; the bank sends notifications over https only$/);
    assert.match(reasonOf('http://127.0.0.1:9000/n'), /https only/);
    assert.match(reasonOf('https://127.0.0.1/n'), /IP address/);
    assert.match(reasonOf('https://[::1]/n'), /IP address/);
    assert.match(reasonOf('https://2130706433/n'), /127\.0\.0\.1 is an IP address/);
    assert.match(reasonOf('https://tpp.example/n#part'), /fragment/);
  });

  it('calls loopback over http in the sandbox only, with any port', () => {
    for (const uri of ['http://127.0.0.1:9000/n', 'http://localhost/n', 'http://LOCALHOST:1/', 'https://localhost/'])
      assert.equal(judge(uri, true).compliant, true, uri);
    assert.match(reasonOf('http://tpp.example/n', true), /also http:\/\/localhost/);
    assert.match(reasonOf('http://10.0.0.1/n', true), /https only/);
  });

  it('judges a certificate without DNS names as covering nothing', () => {
    const judged = judge('https://tpp.example/', false, ['Test TPP AS']);
    assert.equal(judged.compliant, false);
    assert.match(judged.compliant ? '' : judged.reason, /names no DNS domain/);
  });
});

describe('certificate names', () => {
  it('keeps only DNS names, in lower case and without a trailing dot', () => {
    assert.deepEqual(
      certificateDomainNames(['Test TPP AS', 'TPP.Example.', '*.A.example', 'localhost', 'a*.b.example']),
      ['tpp.example', '*.a.example'],
    );
  });

  it('never lets a wildcard on one label cover anything', () => {
    assert.equal(coversHost('*.example', 'a.example'), false);
  });
});
