/**
 * RFC 2047 encoded words: `=?charset?B?base64?=` and `=?charset?Q?quoted?=`. The Berlin Group
 * profile wraps a Signature header this way when a value is not plain ASCII; some clients wrap it
 * always. A text holding no encoded word is returned unchanged.
 */
const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
const WHOLE_ENCODED = /^\s*(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=\s*)+$/;

export class EncodedWordError extends Error {}

export function isEncodedWords(text: string): boolean {
  return WHOLE_ENCODED.test(text);
}

/** Decodes the encoded words in a text; whitespace between adjacent words is dropped, other text kept. */
export function decodeEncodedWords(text: string): string {
  return text.replace(/\?=\s+=\?/g, '?==?').replace(ENCODED_WORD, (word) => {
    const [decoded] = decodeToBytesList(word);
    return decodeCharset(decoded!.bytes, decoded!.charset);
  });
}

/** The raw bytes carried by the encoded words of a text, for a value that is binary once decoded. */
export function encodedWordBytes(text: string): Buffer {
  return Buffer.concat(decodeToBytesList(text).map(({ bytes }) => bytes));
}

function decodeToBytesList(text: string): { bytes: Buffer; charset: string }[] {
  const words: { bytes: Buffer; charset: string }[] = [];
  for (const match of text.matchAll(ENCODED_WORD)) {
    const [, charset, encoding, payload] = match as unknown as [string, string, string, string];
    words.push({
      charset: charset.toLowerCase().replace(/\*.*$/, ''),
      bytes: encoding.toUpperCase() === 'B' ? decodeB(payload) : decodeQ(payload),
    });
  }
  return words;
}

function decodeB(payload: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw new EncodedWordError('B-encoded word is not base64');
  return Buffer.from(payload, 'base64');
}

function decodeQ(payload: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < payload.length; i++) {
    const ch = payload[i]!;
    if (ch === '_') bytes.push(0x20);
    else if (ch === '=') {
      const hex = payload.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new EncodedWordError(`Q-encoded word has a bad escape '=${hex}'`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(ch.charCodeAt(0));
  }
  return Buffer.from(bytes);
}

function decodeCharset(bytes: Buffer, charset: string): string {
  if (charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii') return bytes.toString('utf8');
  if (charset === 'iso-8859-1' || charset === 'latin1') return bytes.toString('latin1');
  throw new EncodedWordError(`charset '${charset}' is not supported (use utf-8 or iso-8859-1)`);
}
