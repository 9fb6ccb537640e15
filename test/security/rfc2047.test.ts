import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EncodedWordError, decodeEncodedWords, encodedWordBytes, isEncodedWords } from '../../src/security/rfc2047.js';

const b64 = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding).toString('base64');

describe('decodeEncodedWords', () => {
  it('decodes a B-encoded utf-8 word', () => {
    assert.equal(decodeEncodedWords(`=?utf-8?B?${b64('Blåbær AS')}?=`), 'Blåbær AS');
  });

  it('decodes a Q-encoded utf-8 word with _ as space and =XY as a byte', () => {
    assert.equal(decodeEncodedWords('=?utf-8?Q?Bl=C3=A5b=C3=A6r_AS?='), 'Blåbær AS');
  });

  it('decodes lower-case hex digits in a Q escape', () => {
    assert.equal(decodeEncodedWords('=?utf-8?Q?=c3=a6?='), 'æ');
  });

  it('decodes iso-8859-1 words in B and Q encoding as Latin-1', () => {
    assert.equal(decodeEncodedWords(`=?iso-8859-1?B?${b64('Blåbær', 'latin1')}?=`), 'Blåbær');
    assert.equal(decodeEncodedWords('=?ISO-8859-1?Q?Bl=E5b=E6r?='), 'Blåbær');
  });

  it('accepts the encoding letter in lower case', () => {
    assert.equal(decodeEncodedWords(`=?utf-8?b?${b64('æøå')}?=`), 'æøå');
    assert.equal(decodeEncodedWords('=?utf-8?q?=C3=A6=C3=B8=C3=A5?='), 'æøå');
  });

  it('accepts the charset name in any case and with an RFC 2231 language suffix', () => {
    assert.equal(decodeEncodedWords(`=?UTF-8?B?${b64('æ')}?=`), 'æ');
    assert.equal(decodeEncodedWords(`=?utf-8*no?B?${b64('æ')}?=`), 'æ');
  });

  it('concatenates adjacent encoded words, dropping the whitespace between them', () => {
    const text = `=?utf-8?B?${b64('keyId="SN=1,')}?= =?utf-8?Q?CA=3DCN=3DBl=C3=A5?=\r\n =?iso-8859-1?B?${b64('bær"', 'latin1')}?=`;
    assert.equal(decodeEncodedWords(text), 'keyId="SN=1,CA=CN=Blåbær"');
  });

  it('throws an EncodedWordError for a B word that is not base64', () => {
    assert.throws(
      () => decodeEncodedWords('=?utf-8?B?YWJj!ZGVm?='),
      (error: unknown) => error instanceof EncodedWordError && /base64/.test(error.message),
    );
    assert.throws(() => decodeEncodedWords('=?utf-8?B?YW=Jj?='), EncodedWordError);
  });

  it('throws an EncodedWordError naming a bad =XY escape in a Q word', () => {
    assert.throws(
      () => decodeEncodedWords('=?utf-8?Q?abc=ZZ?='),
      (error: unknown) => error instanceof EncodedWordError && error.message.includes("'=ZZ'"),
    );
    assert.throws(() => decodeEncodedWords('=?utf-8?Q?abc=4?='), EncodedWordError);
  });

  it('throws an EncodedWordError naming an unsupported charset', () => {
    assert.throws(
      () => decodeEncodedWords(`=?koi8-r?B?${b64('abc')}?=`),
      (error: unknown) => error instanceof EncodedWordError && error.message.includes("'koi8-r'"),
    );
  });

  it('keeps text that is not an encoded word', () => {
    assert.equal(decodeEncodedWords('plain text'), 'plain text');
    assert.equal(decodeEncodedWords('a =?utf-8?B?w6Y=?= b'), 'a æ b');
  });
});

describe('isEncodedWords', () => {
  it('is true for one encoded word, with whitespace around it', () => {
    assert.equal(isEncodedWords('=?utf-8?B?YWJj?='), true);
    assert.equal(isEncodedWords('  =?utf-8?Q?abc?=  '), true);
  });

  it('is true for several encoded words, adjacent or separated by whitespace', () => {
    assert.equal(isEncodedWords('=?utf-8?B?YWJj?= =?iso-8859-1?q?d?='), true);
    assert.equal(isEncodedWords('=?utf-8?B?YWJj?==?utf-8?B?ZGVm?='), true);
  });

  it('is true for an encoded word with an empty payload', () => {
    assert.equal(isEncodedWords('=?utf-8?B??='), true);
  });

  it('is false for plain text', () => {
    assert.equal(isEncodedWords('keyId="SN=1,CA=CN=X",algorithm="rsa-sha256"'), false);
    assert.equal(isEncodedWords(''), false);
  });

  it('is false when text stands before or after an encoded word', () => {
    assert.equal(isEncodedWords('signature="=?utf-8?B?YWJj?="'), false);
    assert.equal(isEncodedWords('x =?utf-8?B?YWJj?='), false);
    assert.equal(isEncodedWords('=?utf-8?B?YWJj?= x'), false);
  });

  it('is false for an encoding other than B or Q', () => {
    assert.equal(isEncodedWords('=?utf-8?X?YWJj?='), false);
  });

  it('is false for a word with whitespace inside its payload or an unfinished word', () => {
    assert.equal(isEncodedWords('=?utf-8?B?YW Jj?='), false);
    assert.equal(isEncodedWords('=?utf-8?B?YWJj'), false);
  });
});

describe('encodedWordBytes', () => {
  it('returns the raw bytes of a B word without decoding a charset', () => {
    assert.deepEqual(encodedWordBytes('=?utf-8?B?/wCA?='), Buffer.from([0xff, 0x00, 0x80]));
  });

  it('returns the raw bytes of a Q word', () => {
    assert.deepEqual(encodedWordBytes('=?utf-8?Q?=FF=00_a?='), Buffer.from([0xff, 0x00, 0x20, 0x61]));
  });

  it('concatenates the bytes of several words', () => {
    assert.deepEqual(encodedWordBytes('=?utf-8?B?AQI=?= =?utf-8?Q?=03?='), Buffer.from([1, 2, 3]));
  });

  it('throws an EncodedWordError for bad base64', () => {
    assert.throws(() => encodedWordBytes('=?utf-8?B?AQ*I?='), EncodedWordError);
  });
});
