import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DestinationPolicy, refusedDestination } from '../../../src/domain/notifications/destination-policy.js';

const PRODUCTION: DestinationPolicy = { mode: 'production', allowedNetworks: [] };
const SANDBOX: DestinationPolicy = { mode: 'sandbox', allowedNetworks: [] };

describe('where the bank sends notifications (SSRF)', () => {
  it('refuses in production every private, loopback, link-local, shared and metadata address, in each IPv6 form', () => {
    for (const address of [
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '192.168.255.254',
      '127.0.0.1',
      '127.255.0.9',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '::',
      '::1',
      'fc00::1',
      'fdff:ffff::1',
      'fe80::1',
      'febf::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '64:ff9b::7f00:1',
      '2002:a00:1::',
    ])
      assert.match(refusedDestination(address, PRODUCTION) ?? 'allowed', /is not a public address/, address);
  });

  it('allows in production a public address, also next to the private ranges and in its IPv6 forms', () => {
    for (const address of [
      '8.8.8.8',
      '172.32.0.1',
      '172.15.255.255',
      '100.128.0.1',
      '11.0.0.1',
      '2a00:1450:4001::1',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ])
      assert.equal(refusedDestination(address, PRODUCTION), undefined, address);
  });

  it('allows in the sandbox loopback only, and besides the networks NOTIFICATION_ALLOWED_NETWORKS names', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      assert.equal(refusedDestination(address, SANDBOX), undefined, address);
    for (const address of ['10.1.2.3', '192.168.5.5', '8.8.8.8', 'fd00::5', '::ffff:10.1.2.3'])
      assert.match(refusedDestination(address, SANDBOX) ?? 'allowed', /is not a loopback address/, address);
    const allowing: DestinationPolicy = {
      mode: 'sandbox',
      allowedNetworks: ['10.1.0.0/16', 'fd00::/8', '192.168.5.5'],
    };
    for (const address of ['10.1.2.3', '10.1.255.255', 'fd00::5', '192.168.5.5', '127.0.0.1', '::ffff:10.1.2.3'])
      assert.equal(refusedDestination(address, allowing), undefined, address);
    for (const address of ['10.2.0.1', '192.168.5.6', 'fc00::1', '8.8.8.8'])
      assert.match(refusedDestination(address, allowing) ?? 'allowed', /is not a loopback address/, address);
  });

  it('refuses what is not an IP address: a name is resolved first, and each address judged', () => {
    assert.match(refusedDestination('localhost', SANDBOX) ?? 'allowed', /'localhost' is not an IP address/);
    assert.match(refusedDestination('example.com', PRODUCTION) ?? 'allowed', /is not an IP address/);
  });
});
