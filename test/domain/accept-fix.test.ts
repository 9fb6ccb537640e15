import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCEPT_FIXES, acceptedFixes } from '../../src/domain/accept-fix.js';

const BEFORE_LONGER_NAME = '2026-11-21';

describe('ACCEPT_FIXES', () => {
  it('holds the changes the specification names, each once', () => {
    const names = ACCEPT_FIXES.map((fix) => fix.name);
    assert.equal(new Set(names).size, names.length);
    for (const name of [
      'cash-account-type-iso',
      'longer-name',
      'cardaccount-switch-originalamount-and-transactionamount',
      'amount-as-string',
    ]) {
      assert.ok(names.includes(name), name);
    }
  });

  it('dates every change in YYYY-MM-DD, with its default after its announcement', () => {
    for (const fix of ACCEPT_FIXES) {
      assert.match(fix.announced, /^\d{4}-\d{2}-\d{2}$/, fix.name);
      if (fix.defaultFrom !== null) {
        assert.match(fix.defaultFrom, /^\d{4}-\d{2}-\d{2}$/, fix.name);
        assert.ok(fix.defaultFrom > fix.announced, fix.name);
      }
    }
  });
});

describe('acceptedFixes', () => {
  it('has amount-as-string in force on 2026-11-21 without any header (already default)', () => {
    const { active, warnings } = acceptedFixes(undefined, BEFORE_LONGER_NAME);
    assert.ok(active.has('amount-as-string'));
    assert.deepEqual(warnings, []);
  });

  it('does not have longer-name in force before 2027-01-01 without the header', () => {
    assert.equal(acceptedFixes(undefined, BEFORE_LONGER_NAME).active.has('longer-name'), false);
    assert.equal(acceptedFixes(undefined, '2026-12-31').active.has('longer-name'), false);
  });

  it('has longer-name in force before its default date when the header asks for it', () => {
    const { active, warnings } = acceptedFixes('longer-name', BEFORE_LONGER_NAME);
    assert.ok(active.has('longer-name'));
    assert.deepEqual(warnings, []);
  });

  it('has longer-name in force without the header from 2027-01-01', () => {
    assert.ok(acceptedFixes(undefined, '2027-01-01').active.has('longer-name'));
  });

  it('activates only what is asked for or default', () => {
    const { active } = acceptedFixes('longer-name', BEFORE_LONGER_NAME);
    assert.equal(active.has('cash-account-type-iso'), false);
    assert.equal(active.has('batch-transactions'), false);
  });

  it('never has a change without a default date in force unless asked for', () => {
    assert.equal(acceptedFixes(undefined, '2099-12-31').active.has('batch-transactions'), false);
    assert.ok(acceptedFixes('batch-transactions', '2099-12-31').active.has('batch-transactions'));
  });

  it("reads an alias as the change's name", () => {
    const { active, warnings } = acceptedFixes('longer-names', BEFORE_LONGER_NAME);
    assert.ok(active.has('longer-name'));
    assert.equal(active.has('longer-names'), false);
    assert.deepEqual(warnings, []);
  });

  it('tolerates quotes and spaces around the list and its names', () => {
    for (const header of [
      '"longer-name, cash-account-type-iso"',
      ' longer-name ,cash-account-type-iso ',
      '"longer-name", "cash-account-type-iso"',
    ]) {
      const { active, warnings } = acceptedFixes(header, BEFORE_LONGER_NAME);
      assert.ok(active.has('longer-name'), header);
      assert.ok(active.has('cash-account-type-iso'), header);
      assert.deepEqual(warnings, [], header);
    }
  });

  it('reads names in any case', () => {
    const { active, warnings } = acceptedFixes('Longer-Name,CASH-ACCOUNT-TYPE-ISO', BEFORE_LONGER_NAME);
    assert.ok(active.has('longer-name'));
    assert.ok(active.has('cash-account-type-iso'));
    assert.deepEqual(warnings, []);
  });

  it('gives one WARNING per unknown name, with code BAD_REQUEST and path header:x-accept-fix, and still applies the known ones', () => {
    const { active, warnings } = acceptedFixes('shorter-name, longer-name, no-such-fix', BEFORE_LONGER_NAME);
    assert.ok(active.has('longer-name'));
    assert.equal(warnings.length, 2);
    for (const warning of warnings) {
      assert.equal(warning.category, 'WARNING');
      assert.equal(warning.code, 'BAD_REQUEST');
      assert.equal(warning.path, 'header:x-accept-fix');
    }
    assert.match(warnings[0]!.text ?? '', /'shorter-name'/);
    assert.match(warnings[1]!.text ?? '', /'no-such-fix'/);
    assert.match(warnings[0]!.text ?? '', /longer-name/);
  });

  it('activates nothing beyond the defaults for an unknown name', () => {
    const withUnknown = acceptedFixes('shorter-name', BEFORE_LONGER_NAME).active;
    const without = acceptedFixes(undefined, BEFORE_LONGER_NAME).active;
    assert.deepEqual(withUnknown, without);
  });

  it('treats an empty, blank or comma-only header as no header', () => {
    const without = acceptedFixes(undefined, BEFORE_LONGER_NAME);
    for (const header of ['', '   ', ',', ' , ,', '""']) {
      assert.deepEqual(acceptedFixes(header, BEFORE_LONGER_NAME), without, JSON.stringify(header));
    }
  });
});
