import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPsuAddress } from '../../src/domain/psu-address.js';

describe('PSU-IP-Address: an address a PSU device can have', () => {
  // Issue 40, 6: these counted as a PSU present.
  it('refuses loopback in every IPv6 form, link-local and reserved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '::127.0.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '2002:7f00:0001:0:0:0:0:1',
      '240.0.0.1',
      '255.255.255.255',
      '169.254.1.1',
      '::ffff:169.254.1.1',
      '2002:a9fe:101::1',
      'fe80::1',
      'febf::1',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      'ff02::1',
      'fe80::1%eth0',
    ])
      assert.equal(isPsuAddress(address), false, address);
  });

  it('takes public addresses, and the documentation ranges tests use', () => {
    for (const address of [
      '192.0.2.10',
      '198.51.100.7',
      '203.0.113.200',
      '2001:db8::1',
      '8.8.8.8',
      '2a01:79d:5f6e::1',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
      '10.1.2.3',
      'fec0::1',
    ])
      assert.equal(isPsuAddress(address), true, address);
  });
});
