import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { NameAttribute } from '../../src/security/der-certificate.js';
import {
  DistinguishedNameError,
  formatDistinguishedName,
  parseDistinguishedName,
  sameDistinguishedName,
} from '../../src/security/distinguished-name.js';

const CN = '2.5.4.3';
const C = '2.5.4.6';
const ST = '2.5.4.8';
const O = '2.5.4.10';
const ORG_ID = '2.5.4.97';
const EMAIL = '1.2.840.113549.1.9.1';

function same(a: string, b: string): boolean {
  return sameDistinguishedName(parseDistinguishedName(a), parseDistinguishedName(b));
}

describe('parseDistinguishedName', () => {
  it('resolves short attribute names to OIDs and keeps the order written', () => {
    assert.deepEqual(parseDistinguishedName('CN=Test CA,O=Test Bank,C=NO'), [
      { oid: CN, value: 'Test CA' },
      { oid: O, value: 'Test Bank' },
      { oid: C, value: 'NO' },
    ]);
  });

  it('reads ST, S, stateOrProvinceName and the OID 2.5.4.8 as the same attribute', () => {
    for (const type of ['ST', 'S', 'stateOrProvinceName', '2.5.4.8', 'OID.2.5.4.8', 'st']) {
      assert.deepEqual(parseDistinguishedName(`${type}=Oslo`), [{ oid: ST, value: 'Oslo' }], type);
    }
  });

  it('reads E and emailAddress as the PKCS#9 email attribute', () => {
    for (const type of ['E', 'emailAddress', 'EMAIL']) {
      assert.deepEqual(parseDistinguishedName(`${type}=ca@bank.no`), [{ oid: EMAIL, value: 'ca@bank.no' }], type);
    }
  });

  it('reads organizationIdentifier and the OID 2.5.4.97 as the same attribute', () => {
    assert.deepEqual(parseDistinguishedName('organizationIdentifier=PSDNO-FSA-111111111'), [
      { oid: ORG_ID, value: 'PSDNO-FSA-111111111' },
    ]);
    assert.deepEqual(parseDistinguishedName('2.5.4.97=PSDNO-FSA-111111111'), [
      { oid: ORG_ID, value: 'PSDNO-FSA-111111111' },
    ]);
  });

  it('splits on commas, semicolons and plus signs and trims around types and values', () => {
    assert.deepEqual(parseDistinguishedName(' CN = A ; O = B + C = NO '), [
      { oid: CN, value: 'A' },
      { oid: O, value: 'B' },
      { oid: C, value: 'NO' },
    ]);
  });

  it('unescapes RFC 4514 backslash escapes of comma, plus sign and quote', () => {
    assert.deepEqual(parseDistinguishedName('O=Bank\\, Trust \\+ Co,CN=The \\"Best\\" CA'), [
      { oid: O, value: 'Bank, Trust + Co' },
      { oid: CN, value: 'The "Best" CA' },
    ]);
  });

  it('decodes backslash hex pairs as UTF-8 bytes', () => {
    assert.deepEqual(parseDistinguishedName('O=Bl\\C3\\A5b\\C3\\A6r AS'), [{ oid: O, value: 'Blåbær AS' }]);
  });

  it('reads a quoted value with separators inside it as one value', () => {
    assert.deepEqual(parseDistinguishedName('O="Bank, Trust + Co; Ltd",C=NO'), [
      { oid: O, value: 'Bank, Trust + Co; Ltd' },
      { oid: C, value: 'NO' },
    ]);
  });

  it('reads %20 as a space', () => {
    assert.deepEqual(parseDistinguishedName('CN=Test%20CA,O=Test%20Bank'), [
      { oid: CN, value: 'Test CA' },
      { oid: O, value: 'Test Bank' },
    ]);
  });

  it('keeps a literal percent sign that starts no escape', () => {
    assert.deepEqual(parseDistinguishedName('O=100% Pay'), [{ oid: O, value: '100% Pay' }]);
    assert.deepEqual(parseDistinguishedName('O=100%%20Pay'), [{ oid: O, value: '100% Pay' }]);
  });

  it('keeps a value that starts with # as written', () => {
    assert.deepEqual(parseDistinguishedName('CN=#0403414243'), [{ oid: CN, value: '#0403414243' }]);
  });

  it('throws a DistinguishedNameError for an attribute without =', () => {
    assert.throws(
      () => parseDistinguishedName('CN'),
      (error: unknown) =>
        error instanceof DistinguishedNameError && /'CN' is not of the form TYPE=value/.test(error.message),
    );
    assert.throws(() => parseDistinguishedName('O=Bank,CN'), DistinguishedNameError);
  });

  it('throws a DistinguishedNameError for an attribute with an empty type', () => {
    assert.throws(() => parseDistinguishedName('=value'), DistinguishedNameError);
  });

  it('throws a DistinguishedNameError naming an unknown attribute type', () => {
    assert.throws(
      () => parseDistinguishedName('CN=A,FOO=bar'),
      (error: unknown) => error instanceof DistinguishedNameError && error.message.includes("'FOO'"),
    );
  });

  it('throws a DistinguishedNameError for an unclosed quote', () => {
    assert.throws(
      () => parseDistinguishedName('CN="Test CA,O=Bank'),
      (error: unknown) => error instanceof DistinguishedNameError && /not closed/.test(error.message),
    );
  });

  it('throws a DistinguishedNameError for an empty name or one of separators only', () => {
    for (const text of ['', '   ', ', ;']) {
      assert.throws(
        () => parseDistinguishedName(text),
        (error: unknown) => error instanceof DistinguishedNameError && /empty/.test(error.message),
        JSON.stringify(text),
      );
    }
  });
});

describe('sameDistinguishedName', () => {
  it('is true for the same attributes in a different order', () => {
    assert.ok(same('CN=Test CA,O=Test Bank,C=NO', 'C=NO,CN=Test CA,O=Test Bank'));
  });

  it('is true when the attribute types are spelled differently', () => {
    assert.ok(same('CN=X,ST=Oslo,E=a@b.no', 'commonName=X,S=Oslo,emailAddress=a@b.no'));
    assert.ok(
      same(
        'CN=X,stateOrProvinceName=Oslo,2.5.4.97=PSDNO-FSA-1',
        '2.5.4.3=X,2.5.4.8=Oslo,organizationIdentifier=PSDNO-FSA-1',
      ),
    );
  });

  it('is true for an escaped, a quoted and a percent-encoded form of the same value', () => {
    assert.ok(same('O=Bank\\, Trust,CN=A B', 'O="Bank, Trust",CN=A%20B'));
  });

  it('compares values ignoring case', () => {
    assert.ok(same('CN=Test CA,O=Test Bank', 'CN=TEST ca,O=test BANK'));
  });

  it('compares values with runs of whitespace collapsed', () => {
    assert.ok(same('CN=Test   CA', 'CN=Test CA'));
    assert.ok(sameDistinguishedName([{ oid: CN, value: 'Test\t \nCA' }], [{ oid: CN, value: 'Test CA' }]));
  });

  it('is false when one name has an attribute more', () => {
    assert.equal(same('CN=Test CA,O=Test Bank', 'CN=Test CA,O=Test Bank,C=NO'), false);
    assert.equal(same('CN=Test CA,O=Test Bank,C=NO', 'CN=Test CA,O=Test Bank'), false);
  });

  it('is false when one value differs', () => {
    assert.equal(same('CN=Test CA,O=Test Bank,C=NO', 'CN=Test CA,O=Test Bank,C=SE'), false);
  });

  it('is false when the same value is under a different attribute type', () => {
    assert.equal(same('CN=Test,O=Bank', 'CN=Bank,O=Test'), false);
  });

  it('is false for names that differ only in which attribute is repeated', () => {
    assert.equal(same('CN=A,CN=A,O=B', 'CN=A,O=B,O=B'), false);
  });
});

describe('formatDistinguishedName', () => {
  it('writes short names for known OIDs and the OID for unknown ones, in the order given', () => {
    assert.equal(
      formatDistinguishedName([
        { oid: C, value: 'NO' },
        { oid: ORG_ID, value: 'PSDNO-FSA-1' },
        { oid: '1.2.3.4', value: 'x' },
        { oid: ST, value: 'Oslo' },
      ]),
      'C=NO,organizationIdentifier=PSDNO-FSA-1,1.2.3.4=x,ST=Oslo',
    );
  });

  it('escapes the RFC 4514 special characters', () => {
    assert.equal(
      formatDistinguishedName([{ oid: O, value: 'A, B + "C"; <D>\\E' }]),
      'O=A\\, B \\+ \\"C\\"\\; \\<D\\>\\\\E',
    );
  });

  for (const [label, value] of [
    ['commas', 'Test Bank, Trust & Co'],
    ['plus signs', 'A+B+C'],
    ['quotes', '"Quoted" Bank'],
    ['a quoted whole value', '"all quoted"'],
    ['a leading #', '#not-ber'],
    ['a leading space', ' Leading space'],
    ['backslashes before hex digits', 'C:\\AB\\41'],
    ['semicolons and equals signs', 'a;b=c'],
    ['non-ASCII letters', 'Blåbær Ærøskøbing'],
    ['a percent sign that starts no escape', '100% Pay'],
  ] as const) {
    it(`gives back the same attributes when parsed again, for a value with ${label}`, () => {
      const attributes: NameAttribute[] = [
        { oid: CN, value },
        { oid: O, value: `${value} AS` },
        { oid: C, value: 'NO' },
      ];
      assert.deepEqual(parseDistinguishedName(formatDistinguishedName(attributes)), attributes);
    });
  }

  it('gives back the same attributes when parsed again, for any unicode CN and O values', () => {
    const special = fc.constantFrom(',', '+', ';', '"', '\\', '#', ' ', '=', '<', '>', '%', 'A', 'f', '0', '😀', '𠮷');
    const unit = fc.oneof(special, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }));
    // Values are trimmed when parsed, so they are generated without leading or trailing whitespace.
    const value = fc.string({ unit, minLength: 1, maxLength: 24 }).filter((v) => v.trim() === v && v !== '');
    fc.assert(
      fc.property(value, value, (cn, o) => {
        const attributes: NameAttribute[] = [
          { oid: CN, value: cn },
          { oid: O, value: o },
        ];
        const parsed = parseDistinguishedName(formatDistinguishedName(attributes));
        assert.deepEqual(parsed, attributes);
        assert.ok(sameDistinguishedName(parsed, attributes));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps characters beyond the Basic Multilingual Plane whole, written plainly or percent-encoded', () => {
    assert.deepEqual(parseDistinguishedName('CN=𠮷野家,O=Smile 😀 AS'), [
      { oid: CN, value: '𠮷野家' },
      { oid: O, value: 'Smile 😀 AS' },
    ]);
    assert.deepEqual(parseDistinguishedName('O=%F0%9F%98%80'), [{ oid: O, value: '😀' }]);
  });

  it('keeps an escaped trailing space and drops an unescaped one', () => {
    assert.deepEqual(parseDistinguishedName('O=abc\\ '), [{ oid: O, value: 'abc ' }]);
    assert.deepEqual(parseDistinguishedName('O=abc  '), [{ oid: O, value: 'abc' }]);
    assert.deepEqual(parseDistinguishedName(formatDistinguishedName([{ oid: O, value: 'abc ' }])), [
      { oid: O, value: 'abc ' },
    ]);
  });

  it('writes % escaped, so a value with % and two hex digits survives a round trip', () => {
    assert.equal(formatDistinguishedName([{ oid: O, value: '100%41' }]), 'O=100\\2541');
    assert.deepEqual(parseDistinguishedName(formatDistinguishedName([{ oid: O, value: '100%41' }])), [
      { oid: O, value: '100%41' },
    ]);
  });
});
