import type { NameAttribute } from './der-certificate.js';
import { DistinguishedNameError, parseDistinguishedName } from './distinguished-name.js';
import { EncodedWordError, decodeEncodedWords, encodedWordBytes, isEncodedWords } from './rfc2047.js';
import {
  CERTIFICATE_CACHE_ENTRIES,
  SIGNED_HEADERS_MAX_COUNT,
  SIGNATURE_TEXT_CACHED_MAX_LENGTH,
} from '../domain/limits.js';

/** The parameters of a draft-cavage Signature header as the Berlin Group profile uses them. */
export interface SignatureParameters {
  keyId: KeyId;
  algorithm: string;
  /** Lower-case names of the signed headers, in signing order; shared by every request that signs the same list. */
  headers: readonly string[];
  signature: Buffer;
}

/** keyId="SN=<serial hex>,CA=<issuer DN>" names the signing certificate. */
export interface KeyId {
  text: string;
  serial: bigint;
  issuer: NameAttribute[];
}

export class SignatureHeaderError extends Error {}

// The quoted value as an unrolled loop (runs of plain characters, then one escape at a time): an
// alternation per character made the 344 characters of a signature a step each.
const PARAMETER = /\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*("[^"\\]*(?:\\.[^"\\]*)*"|[^,]*?)\s*(?:,|$)/y;
const BASE64_TEXT = /^[A-Za-z0-9+/]+={0,2}$/;

export function parseSignatureHeader(header: string): SignatureParameters {
  const text = isEncodedWords(header) ? decodeWords(header) : header;
  const raw = quotedParameters(text) ?? parameters(text);
  const keyIdText = required(raw, 'keyid', 'keyId');
  const algorithm = required(raw, 'algorithm', 'algorithm').toLowerCase();
  const signatureText = required(raw, 'signature', 'signature');
  // draft-cavage: without a headers parameter only `date` is signed.
  const headers = signedHeaderNames(raw.get('headers') ?? 'date');
  return { keyId: parseKeyId(keyIdText), algorithm, headers, signature: decodeSignature(signatureText) };
}

const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;

/**
 * The parameters of the form every signing library writes, name="value" joined by commas with at
 * most spaces between and no backslash in a value, read by searching for the quotes; undefined for
 * any other text, which PARAMETER reads. For this form both read the same parameters, and the search
 * does not step through the signature's 344 characters one by one (bench/history.md, "The Signature
 * header read by its quotes").
 */
function quotedParameters(text: string): Map<string, string> | undefined {
  const raw = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    while (text.charCodeAt(at) === SPACE) at++;
    const equals = text.indexOf('="', at);
    if (equals <= at) return undefined;
    const name = text.slice(at, equals);
    const close = text.indexOf('"', equals + 2);
    if (close < 0 || !PARAMETER_NAME.test(name)) return undefined;
    const value = text.slice(equals + 2, close);
    const key = name.toLowerCase();
    if (value.includes('\\') || raw.has(key)) return undefined;
    raw.set(key, value);
    at = close + 1;
    while (text.charCodeAt(at) === SPACE) at++;
    if (at < text.length && text.charCodeAt(at++) !== COMMA) return undefined;
  }
  return raw;
}

const SPACE = 0x20;
const COMMA = 0x2c;

/** The parameters of any text PARAMETER reads, with an error that names where it cannot. */
function parameters(text: string): Map<string, string> {
  const raw = new Map<string, string>();
  PARAMETER.lastIndex = 0;
  while (PARAMETER.lastIndex < text.length) {
    const start = PARAMETER.lastIndex;
    const match = PARAMETER.exec(text);
    if (match === null || PARAMETER.lastIndex === start) {
      throw new SignatureHeaderError(
        `cannot read a name="value" parameter at position ${start}: '${text.slice(start, start + 30)}'`,
      );
    }
    const name = match[1]!.toLowerCase();
    if (raw.has(name)) throw new SignatureHeaderError(`parameter '${name}' is given twice`);
    raw.set(name, unquote(match[2]!));
  }
  return raw;
}

/** A TPP signs the same list of headers on every request: the list is kept by its text, frozen and shared. */
const signedHeaderLists = new Map<string, readonly string[]>();

function signedHeaderNames(text: string): readonly string[] {
  return kept(signedHeaderLists, text, readSignedHeaderNames);
}

/**
 * What `read` makes of a parameter's text, kept by the text: as many as certificates are, and only
 * texts up to SIGNATURE_TEXT_CACHED_MAX_LENGTH, since they are read before the signature is checked.
 */
function kept<T>(cache: Map<string, T>, text: string, read: (text: string) => T): T {
  let value = cache.get(text);
  if (value === undefined) {
    value = read(text);
    if (text.length > SIGNATURE_TEXT_CACHED_MAX_LENGTH) return value;
    if (cache.size >= CERTIFICATE_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(text, value);
  }
  return value;
}

function readSignedHeaderNames(text: string): readonly string[] {
  const headers = text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((h) => h !== '');
  if (headers.length === 0) throw new SignatureHeaderError("parameter 'headers' is empty");
  if (headers.length > SIGNED_HEADERS_MAX_COUNT) {
    throw new SignatureHeaderError(
      `parameter 'headers' names ${headers.length} headers; at most ${SIGNED_HEADERS_MAX_COUNT} are accepted`,
    );
  }
  return Object.freeze(headers);
}

/**
 * A TPP signs every request with the same keyId, and parsing its distinguished name on every request
 * would be a measurable part of a status read (bench/history.md, "The request's own work"). Parsed
 * keyIds are kept by their text, as many as certificates are.
 */
const parsedKeyIds = new Map<string, KeyId>();

export function parseKeyId(text: string): KeyId {
  return kept(parsedKeyIds, text, parseKeyIdText);
}

function parseKeyIdText(text: string): KeyId {
  const value = isEncodedWords(text) ? decodeWords(text) : text;
  const match = /^\s*SN\s*=\s*(?:0x)?([0-9A-Fa-f:]+)\s*,\s*CA\s*=(.+)$/s.exec(value);
  if (match === null) {
    throw new SignatureHeaderError(
      `keyId '${value}' is not of the form SN=<certificate serial in hex>,CA=<issuer distinguished name>`,
    );
  }
  const hex = match[1]!.replace(/:/g, '');
  if (hex === '') throw new SignatureHeaderError(`keyId '${value}' has an empty serial number`);
  try {
    return { text: value, serial: BigInt(`0x${hex}`), issuer: parseDistinguishedName(match[2]!) };
  } catch (error) {
    if (error instanceof DistinguishedNameError)
      throw new SignatureHeaderError(`keyId CA '${match[2]}' is not a distinguished name: ${error.message}`);
    throw error;
  }
}

/** The signature is base64; a client that wraps it as an encoded word sends base64 of the bytes inside. */
function decodeSignature(text: string): Buffer {
  if (isEncodedWords(text)) {
    const bytes = wrap(() => encodedWordBytes(text));
    const inner = bytes.toString('latin1');
    return BASE64_TEXT.test(inner) ? Buffer.from(inner, 'base64') : bytes;
  }
  const compact = text.replace(/\s+/g, '');
  const bytes = Buffer.from(compact, 'base64');
  // Base64 as every signing library writes it is its bytes' own encoding, found without running the
  // pattern over its 344 characters; any other text is judged by the pattern, as before (docs/decisions/0359).
  const canonical = compact.length > 0 && bytes.toString('base64') === compact;
  if (!canonical && !BASE64_TEXT.test(compact)) throw new SignatureHeaderError('signature is not base64');
  return bytes;
}

function required(raw: Map<string, string>, key: string, name: string): string {
  const value = raw.get(key);
  if (value === undefined || value.trim() === '') throw new SignatureHeaderError(`parameter '${name}' is missing`);
  return value;
}

/**
 * Only \" and \\ are unescaped: the keyId's DN has backslash escapes of its own (RFC 4514, `\,`)
 * that clients put inside the quotes as they are.
 */
function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  const inner = value.slice(1, -1);
  // Most values hold no backslash: the signature's 344 characters are then not scanned again.
  return inner.includes('\\') ? inner.replace(/\\(["\\])/g, '$1') : inner;
}

function decodeWords(text: string): string {
  return wrap(() => decodeEncodedWords(text));
}

function wrap<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof EncodedWordError)
      throw new SignatureHeaderError(`RFC 2047 encoded word cannot be decoded: ${error.message}`);
    throw error;
  }
}
