import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AccountRules,
  accountKey,
  accountProblems,
  bicCountry,
  bicProblem,
  ibanFailure,
  isBic,
} from '../../src/domain/account-reference.js';
import { isValidBIC } from 'ibantools';

const NORWEGIAN = { norwegian: true };
const FOREIGN = { norwegian: false };
const SE_IBAN = 'SE4550000000058398257466';

function paths(
  account: Partial<Record<'bban' | 'iban', unknown>>,
  rules: AccountRules,
): [string, string | undefined][] {
  return accountProblems(account, '$.x', rules).map((problem) => [problem.code, problem.path]);
}

describe('accountProblems, Norwegian accounts', () => {
  it('accepts Norwegian BBANs with a valid MOD11 check digit', () => {
    assert.deepEqual(paths({ bban: '12345678903' }, NORWEGIAN), []);
    assert.deepEqual(paths({ bban: '86011117947' }, NORWEGIAN), []);
  });

  it('refuses a Norwegian BBAN with a wrong MOD11 check digit at $.x.bban', () => {
    assert.deepEqual(paths({ bban: '12345678904' }, NORWEGIAN), [['FORMAT_ERROR', '$.x.bban']]);
    assert.match(accountProblems({ bban: '12345678904' }, '$.x', NORWEGIAN)[0]!.text, /MOD11/);
  });

  it('refuses a Norwegian BBAN of the wrong length or with separators at $.x.bban', () => {
    for (const bban of ['1234567890', '123456789030', '1234.56.78903', '1234 56 78903', '']) {
      assert.deepEqual(paths({ bban }, NORWEGIAN), [['FORMAT_ERROR', '$.x.bban']], bban);
      assert.match(accountProblems({ bban }, '$.x', NORWEGIAN)[0]!.text, /11 digits/, bban);
    }
  });

  it('accepts the Norwegian IBAN NO9386011117947', () => {
    assert.deepEqual(paths({ iban: 'NO9386011117947' }, NORWEGIAN), []);
  });

  it('refuses an IBAN with wrong check digits at $.x.iban', () => {
    assert.deepEqual(paths({ iban: 'NO9486011117947' }, NORWEGIAN), [['FORMAT_ERROR', '$.x.iban']]);
    assert.deepEqual(paths({ iban: 'SE4650000000058398257466' }, FOREIGN), [['FORMAT_ERROR', '$.x.iban']]);
  });

  it('refuses an IBAN written with spaces', () => {
    assert.deepEqual(paths({ iban: 'NO93 8601 1117 947' }, NORWEGIAN), [['FORMAT_ERROR', '$.x.iban']]);
  });

  it('refuses a valid foreign IBAN under the Norwegian rule', () => {
    assert.deepEqual(paths({ iban: SE_IBAN }, NORWEGIAN), [['FORMAT_ERROR', '$.x.iban']]);
    assert.match(accountProblems({ iban: SE_IBAN }, '$.x', NORWEGIAN)[0]!.text, /Norwegian/);
  });

  it('accepts an IBAN and a BBAN given together when they name the same account', () => {
    assert.deepEqual(paths({ iban: 'NO9386011117947', bban: '86011117947' }, NORWEGIAN), []);
  });

  it('refuses an IBAN and a BBAN that name different accounts, at $.x.bban', () => {
    assert.deepEqual(paths({ iban: 'NO9386011117947', bban: '12345678903' }, NORWEGIAN), [
      ['FORMAT_ERROR', '$.x.bban'],
    ]);
    assert.match(
      accountProblems({ iban: 'NO9386011117947', bban: '12345678903' }, '$.x', NORWEGIAN)[0]!.text,
      /different accounts/,
    );
    assert.deepEqual(paths({ iban: 'NO9386011117947', bban: '12345678903' }, FOREIGN), [['FORMAT_ERROR', '$.x.bban']]);
  });
});

describe('accountProblems, foreign accounts', () => {
  it('accepts a valid foreign IBAN', () => {
    assert.deepEqual(paths({ iban: SE_IBAN }, FOREIGN), []);
    assert.deepEqual(paths({ iban: 'DE89370400440532013000' }, FOREIGN), []);
  });

  it('accepts a foreign BBAN of letters and digits', () => {
    assert.deepEqual(paths({ bban: 'ABC123456' }, FOREIGN), []);
    assert.deepEqual(paths({ bban: '5000000005839825' }, FOREIGN), []);
    assert.deepEqual(paths({ bban: 'a'.repeat(30) }, FOREIGN), []);
  });

  it('refuses a foreign BBAN with punctuation or spaces at $.x.bban', () => {
    for (const bban of ['ABC-123', '1234.5678', 'AB 12', 'Ø123', '']) {
      assert.deepEqual(paths({ bban }, FOREIGN), [['FORMAT_ERROR', '$.x.bban']], bban);
    }
  });

  it('does not apply MOD11 to a foreign BBAN', () => {
    assert.deepEqual(paths({ bban: '12345678904' }, FOREIGN), []);
  });
});

describe('accountProblems, shape', () => {
  it('refuses an account with neither bban nor iban at the object path', () => {
    assert.deepEqual(paths({}, NORWEGIAN), [['FORMAT_ERROR', '$.x']]);
    assert.deepEqual(paths({}, FOREIGN), [['FORMAT_ERROR', '$.x']]);
    assert.deepEqual(paths({ bban: undefined, iban: undefined }, { norwegian: true, bbanOrIban: true }), [
      ['FORMAT_ERROR', '$.x'],
    ]);
  });

  it('leaves a missing identifier to the schema when bbanOrIban is false, and still checks what is given', () => {
    assert.deepEqual(paths({}, { norwegian: true, bbanOrIban: false }), []);
    assert.deepEqual(paths({ bban: '12345678904' }, { norwegian: true, bbanOrIban: false }), [
      ['FORMAT_ERROR', '$.x.bban'],
    ]);
  });

  it('skips values of the wrong type without throwing (the schema reports them)', () => {
    assert.deepEqual(paths({ bban: 12345678903 }, NORWEGIAN), []);
    assert.deepEqual(paths({ iban: ['NO9386011117947'] }, NORWEGIAN), []);
    assert.deepEqual(paths({ bban: null, iban: {} }, FOREIGN), []);
  });

  it('reports every problem of an account at once', () => {
    assert.deepEqual(paths({ iban: 'NO9486011117947', bban: '12345678904' }, NORWEGIAN), [
      ['FORMAT_ERROR', '$.x.iban'],
      ['FORMAT_ERROR', '$.x.bban'],
    ]);
  });
});

describe('bicProblem', () => {
  it('accepts an 11-character and an 8-character BIC', () => {
    assert.equal(bicProblem('DNBANOKKXXX', '$.creditorAgent'), undefined);
    assert.equal(bicProblem('DNBANOKK', '$.creditorAgent'), undefined);
    assert.equal(bicProblem('ESSESESSXXX', '$.creditorAgent'), undefined);
  });

  it('refuses strings that are not BICs with FORMAT_ERROR at the given path', () => {
    for (const bic of ['DNB', 'DNBANOKK1', 'DNBANOKKXX', 'DNBANOKKXXXX', '1NBANOKKXXX', 'DNBA00KKXXX', '']) {
      const problem = bicProblem(bic, '$.creditorAgent');
      assert.equal(problem?.code, 'FORMAT_ERROR', bic);
      assert.equal(problem?.path, '$.creditorAgent', bic);
    }
  });
});

describe('bicCountry', () => {
  it('is the 5th and 6th characters of the BIC, upper-cased', () => {
    assert.equal(bicCountry('ESSESESSXXX'), 'SE');
    assert.equal(bicCountry('DNBANOKK'), 'NO');
    assert.equal(bicCountry('dnbanokkxxx'), 'NO');
  });
});

describe('accountKey', () => {
  it('is the IBAN when given, else the BBAN, upper-cased', () => {
    assert.equal(accountKey({ iban: 'NO9386011117947', bban: '86011117947' }), 'NO9386011117947');
    assert.equal(accountKey({ bban: '12345678903' }), '12345678903');
    assert.equal(accountKey({ bban: 'abc123' }), 'ABC123');
    assert.equal(accountKey({ iban: 'no9386011117947' }), 'NO9386011117947');
  });

  it('is empty without bban and iban', () => {
    assert.equal(accountKey({}), '');
  });
});

describe('ibanFailure: which check of an IBAN failed', () => {
  it('names the national check of a Norwegian IBAN whose account number fails MOD11, not the country, check digits or length', () => {
    // NO9390412263057: ISO 13616 check digits right, but 90412263057 fails MOD11.
    const text = ibanFailure('NO9390412263057')!;
    assert.match(text, /its account part 90412263057 fails the national check: its MOD11 check digit is wrong/);
    assert.doesNotMatch(text, /country code|check digits 93|characters/);
    assert.match(
      accountProblems({ iban: 'NO9390412263057' }, '$.x', NORWEGIAN)[0]!.text,
      /is not a valid IBAN: its account part 90412263057 fails the national check/,
    );
  });

  it('names wrong check digits, a wrong length, an unknown country and spaces, each as itself', () => {
    assert.match(ibanFailure('NO9486011117947')!, /^its check digits 94 are wrong \(ISO 13616 MOD97\)$/);
    assert.match(ibanFailure('NO938601111794')!, /it has 14 characters, but an IBAN of NO has 15/);
    assert.match(ibanFailure('XX9386011117947')!, /country code 'XX' is not that of a country with IBANs/);
    assert.match(ibanFailure('NO93 8601 1117 947')!, /contains spaces/);
    assert.match(ibanFailure('NOAB86011117947')!, /check digits 'AB' are not digits/);
    assert.equal(ibanFailure('NO9386011117947'), undefined);
  });
});

describe('isBic (issue 44: its pattern made once)', () => {
  it("answers as ibantools' isValidBIC on every form, case and country that matters", () => {
    const texts = [
      'ESSESESSXXX',
      'ESSESESS',
      'essesessxxx',
      'DNBANOKK',
      'DNBANOKKXXX',
      'DNBANOKK1',
      'DNBANOKKXX',
      'DNBANOKKXXXX',
      'DNBAZZKK',
      'DNBA__KK',
      'DNB1NOKK',
      'DNBANO-K',
      'DNBANOKKXX!',
      ' DNBANOKK',
      'DNBANOKK\n',
      '',
      'NOKK',
      'ÆØÅANOKK',
    ];
    for (const text of texts) assert.equal(isBic(text), isValidBIC(text), JSON.stringify(text));
    assert.equal(isBic('ESSESESSXXX'), true);
    assert.equal(isBic('DNBAZZKK'), false, 'an unknown country');
  });
});
