import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeIBAN } from 'ibantools';
import {
  accountCheckDigit,
  counterpartAccount,
  customerNumberFindings,
  ownAccountFindings,
  transactionDirection,
} from '../../src/domain/sandbox-rules.js';

const at = (bban: string) => ({ iban: composeIBAN({ countryCode: 'NO', bban })!, bban });
const A = at('12345678903');
const OTHER = at('12345678911');
const ELSEWHERE = at('90491105991');

describe('customerNumberFindings', () => {
  it('takes a corporate number of other digits (55555555, a 9-digit number failing MOD11) with a warning, not a problem', () => {
    for (const number of ['55555555', '88888888', '912340001', '12345678901']) {
      const found = customerNumberFindings(number, 'CORPORATE', '$.customerNumber');
      assert.deepEqual(found.problems, [], number);
      assert.equal(found.warnings.length, 1, number);
      assert.equal(found.warnings[0]!.path, '$.customerNumber');
    }
    assert.match(
      customerNumberFindings('55555555', 'CORPORATE', '$.c').warnings[0]!.text,
      /'55555555' is not a Norwegian organisation number \(it has 8 digits, not 9\)/,
    );
    assert.match(
      customerNumberFindings('912340001', 'CORPORATE', '$.c').warnings[0]!.text,
      /MOD11 check digit is wrong/,
    );
  });

  it('takes an organisation number and an 11-digit national identity number silently; refuses letters, and a private number that is no national identity number', () => {
    assert.deepEqual(customerNumberFindings('18129215603', 'CORPORATE', '$.c'), { problems: [], warnings: [] });
    assert.deepEqual(customerNumberFindings('13039319955', 'PRIVATE', '$.c'), { problems: [], warnings: [] });
    assert.equal(customerNumberFindings('AS123', 'CORPORATE', '$.c').problems.length, 1);
    assert.equal(customerNumberFindings('55555555', 'PRIVATE', '$.c').problems.length, 1);
  });
});

describe('ownAccountFindings', () => {
  it('takes a BBAN that fails MOD11 with one warning saying what its check digit would be and that payments will be refused', () => {
    const found = ownAccountFindings('83204742935', 'NO1383204742935');
    assert.deepEqual(found.problems, []);
    assert.equal(found.iban, 'NO1383204742935');
    assert.deepEqual(
      found.warnings.map((w) => w.path),
      ['$.bban'],
    );
    assert.match(
      found.warnings[0]!.text,
      /MOD11 check digit is wrong \(it would be \d, not 5\).*refuses payments from or to this number/,
    );
    assert.equal(ownAccountFindings('83204742935', undefined).iban, 'NO1383204742935', 'the IBAN is composed');
    assert.equal(accountCheckDigit('1234567890'), 3);
  });

  it('refuses a BBAN that is not 11 digits, and an IBAN with wrong check digits or of another account, naming the check', () => {
    assert.match(ownAccountFindings('1234567890', undefined).problems[0]!.text, /11 digits/);
    assert.match(
      ownAccountFindings('12345678903', 'NO9412345678903').problems[0]!.text,
      /check digits \d\d are wrong \(ISO 13616 MOD97\)/,
    );
    assert.match(ownAccountFindings('12345678903', OTHER.iban).problems[0]!.text, /is not the IBAN of \$\.bban/);
  });
});

describe('counterpartAccount', () => {
  it('takes an account number elsewhere that fails MOD11 with a warning, and composes its IBAN', () => {
    const found = counterpartAccount({ bban: '83204742935' }, '$[0].debtorAccount');
    assert.deepEqual(found.account, { iban: 'NO1383204742935', bban: '83204742935' });
    assert.deepEqual(
      found.warnings.map((w) => w.path),
      ['$[0].debtorAccount.bban'],
    );
    assert.deepEqual(
      counterpartAccount({ iban: 'NO1383204742935' }, '$.d').warnings.map((w) => w.path),
      ['$.d.iban'],
    );
    assert.deepEqual(counterpartAccount({ iban: ELSEWHERE.iban }, '$.d').warnings, []);
  });
});

describe('transactionDirection', () => {
  const direction = (debtor: typeof A, creditor: typeof A, debtorInThisBank = false) =>
    transactionDirection(A, { debtor, creditor, debtorInThisBank }, '$[0]');

  it('is a debit when the account is the debtor, whatever the creditor and the sign', () => {
    assert.deepEqual(direction(A, ELSEWHERE), { direction: 'debit' });
    assert.deepEqual(direction(A, OTHER), { direction: 'debit' });
  });

  it('is a credit when the account is the creditor and the debtor is outside this bank', () => {
    assert.deepEqual(direction(ELSEWHERE, A), { direction: 'credit' });
  });

  it('refuses another account of this bank as the debtor, the account on neither side, and on both', () => {
    const inBank = direction(OTHER, A, true);
    assert.ok('problem' in inBank);
    assert.equal(inBank.problem.path, '$[0].debtorAccount');
    assert.match(inBank.problem.text, /of this sandbox bank as the debtor.*would not show the debit/);
    const neither = direction(ELSEWHERE, OTHER);
    assert.ok('problem' in neither);
    assert.equal(neither.problem.path, '$[0]');
    assert.match(neither.problem.text, /on neither side/);
    const both = direction(A, A);
    assert.ok('problem' in both);
    assert.equal(both.problem.path, '$[0].creditorAccount');
  });
});
