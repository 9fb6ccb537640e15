import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, clipText, publishTppMessages } from '../../src/domain/api-error.js';
import { TPP_MESSAGE_TEXT_MAX_LENGTH } from '../../src/domain/limits.js';

describe('ApiError and TppMessage', () => {
  it('clips tppMessage text and psuMessage to 512 characters (specification, Limits)', () => {
    assert.equal(TPP_MESSAGE_TEXT_MAX_LENGTH, 512);
    assert.equal(clipText('a'.repeat(512)), 'a'.repeat(512));
    const clipped = clipText('a'.repeat(600));
    assert.equal(clipped.length, 512);
    assert.ok(clipped.endsWith('…'));
    const error = new ApiError('FORMAT_ERROR', 'x'.repeat(1000));
    assert.equal(error.tppMessages[0]!.text!.length, 512);
  });

  it('takes its status from the code, and its problems share it', () => {
    assert.equal(new ApiError('KID_INVALID', 'bad').status, 400);
    assert.equal(new ApiError('PRODUCT_INVALID', 'bad').status, 403);
    assert.throws(
      () =>
        ApiError.of([
          { code: 'FORMAT_ERROR', text: 'a' },
          { code: 'RESOURCE_UNKNOWN', text: 'b' },
        ]),
      /mixes FORMAT_ERROR \(400\) with RESOURCE_UNKNOWN \(404\)/,
    );
  });

  it('leads with the first problem and counts them all', () => {
    const error = ApiError.of([
      { code: 'HTTP_HEADER_REQUIRED', path: 'header:PSU-ID', text: 'first' },
      { code: 'FORMAT_ERROR', path: '$.a', text: 'second' },
    ]);
    assert.equal(error.code, 'HTTP_HEADER_REQUIRED');
    assert.equal(error.message, '2 problems in the request; the first: first');
    assert.deepEqual(error.tppMessages, [
      { category: 'ERROR', code: 'HTTP_HEADER_REQUIRED', path: 'header:PSU-ID', text: 'first' },
      { category: 'ERROR', code: 'FORMAT_ERROR', path: '$.a', text: 'second' },
    ]);
  });

  it("keeps the precise code on the problem, and publishes a code of the specification's list with the precise one at the end of the text", () => {
    const error = ApiError.of([
      { code: 'SIGNATURE_INVALID', path: 'header:Signature', text: 'header Signature does not verify' },
      { code: 'PSU_CREDENTIALS_INVALID', path: 'header:PSU-ID', text: 'unknown PSU' },
    ]);
    assert.equal(error.code, 'SIGNATURE_INVALID');
    assert.equal(error.tppMessages[0]!.code, 'SIGNATURE_INVALID');
    const published = publishTppMessages(error.tppMessages);
    assert.deepEqual(published, [
      {
        category: 'ERROR',
        code: 'BAD_REQUEST',
        path: 'header:Signature',
        text: 'header Signature does not verify (SIGNATURE_INVALID)',
      },
      { category: 'ERROR', code: 'PSU_CREDENTIALS_INVALID', path: 'header:PSU-ID', text: 'unknown PSU' },
    ]);
    assert.deepEqual(publishTppMessages(published), published, 'publishing twice changes nothing');
    assert.deepEqual(publishTppMessages([{ category: 'WARNING', code: 'REFERENCE_STATUS_INVALID' }]), [
      { category: 'WARNING', code: 'CONFLICT', text: '(REFERENCE_STATUS_INVALID)' },
    ]);
  });

  it('keeps a published text within 512 characters and the precise code in it', () => {
    const [message] = publishTppMessages(new ApiError('CERTIFICATE_INVALID', 'x'.repeat(1000)).tppMessages);
    assert.equal(message!.code, 'FORBIDDEN');
    assert.equal(message!.text!.length, 512);
    assert.ok(message!.text!.endsWith('… (CERTIFICATE_INVALID)'), message!.text!.slice(-40));
  });
});
