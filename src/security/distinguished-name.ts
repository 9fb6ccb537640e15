import type { NameAttribute } from './der-certificate.js';

/**
 * Distinguished names as TPP clients write them in keyId. Clients differ in attribute order,
 * attribute names (ST or S, E or emailAddress, OIDs), escaping (RFC 2253, RFC 4514, quoted
 * RFC 1779 values) and some percent-encode spaces; two names are equal when they hold the same
 * attributes with the same values, compared as X.520 caseIgnoreMatch does.
 */

const ATTRIBUTE_OIDS: Record<string, string> = {
  CN: '2.5.4.3',
  COMMONNAME: '2.5.4.3',
  SN: '2.5.4.4',
  SURNAME: '2.5.4.4',
  SERIALNUMBER: '2.5.4.5',
  C: '2.5.4.6',
  COUNTRYNAME: '2.5.4.6',
  L: '2.5.4.7',
  LOCALITYNAME: '2.5.4.7',
  ST: '2.5.4.8',
  S: '2.5.4.8',
  STATEORPROVINCENAME: '2.5.4.8',
  STREET: '2.5.4.9',
  STREETADDRESS: '2.5.4.9',
  O: '2.5.4.10',
  ORGANIZATIONNAME: '2.5.4.10',
  OU: '2.5.4.11',
  ORGANIZATIONALUNITNAME: '2.5.4.11',
  T: '2.5.4.12',
  TITLE: '2.5.4.12',
  POSTALCODE: '2.5.4.17',
  GN: '2.5.4.42',
  GIVENNAME: '2.5.4.42',
  ORGANIZATIONIDENTIFIER: '2.5.4.97',
  ORGID: '2.5.4.97',
  E: '1.2.840.113549.1.9.1',
  EMAIL: '1.2.840.113549.1.9.1',
  EMAILADDRESS: '1.2.840.113549.1.9.1',
  DC: '0.9.2342.19200300.100.1.25',
  DOMAINCOMPONENT: '0.9.2342.19200300.100.1.25',
  UID: '0.9.2342.19200300.100.1.1',
  USERID: '0.9.2342.19200300.100.1.1',
};

const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'T',
  '2.5.4.17': 'postalCode',
  '2.5.4.42': 'GN',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'E',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
};

export class DistinguishedNameError extends Error {}

/** Parses a DN string into attributes; attribute types are resolved to OIDs. */
export function parseDistinguishedName(text: string): NameAttribute[] {
  const attributes: NameAttribute[] = [];
  for (const pair of splitUnescaped(text, ',;+')) {
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new DistinguishedNameError(`'${pair.trim()}' is not of the form TYPE=value`);
    attributes.push({ oid: attributeOid(pair.slice(0, equals).trim()), value: unescapeValue(pair.slice(equals + 1)) });
  }
  if (attributes.length === 0) throw new DistinguishedNameError('the name is empty');
  return attributes;
}

/** True when both names hold the same attributes, whatever their order and spelling. */
export function sameDistinguishedName(a: readonly NameAttribute[], b: readonly NameAttribute[]): boolean {
  return a.length === b.length && canonicalName(a) === canonicalName(b);
}

/**
 * The canonical form of each name compared, kept while the name is: the keyId's and the certificate's
 * issuer are parsed once and kept (signature-header.ts, tpp-authenticator.ts), and working out their
 * canonical forms on every request would be a measurable part of a status read (bench/history.md,
 * "The request's own work").
 */
const canonicalNames = new WeakMap<readonly NameAttribute[], string>();

/** The name's attributes in canonical form, sorted, one per line (a canonical value holds no line break: whitespace runs become a space). */
function canonicalName(attributes: readonly NameAttribute[]): string {
  let canonical = canonicalNames.get(attributes);
  if (canonical === undefined) {
    canonical = attributes.map(canonicalAttribute).sort().join('\n');
    canonicalNames.set(attributes, canonical);
  }
  return canonical;
}

/** RFC 4514 form of a name, in the order given; used in messages and by the toolkit's keyId. */
export function formatDistinguishedName(attributes: readonly NameAttribute[]): string {
  return attributes.map((a) => `${SHORT_NAMES[a.oid] ?? a.oid}=${escapeValue(a.value)}`).join(',');
}

function attributeOid(type: string): string {
  const upper = type.toUpperCase().replace(/^OID\./, '');
  if (/^\d+(\.\d+)+$/.test(upper)) return upper;
  const oid = ATTRIBUTE_OIDS[upper];
  if (oid === undefined) throw new DistinguishedNameError(`unknown attribute type '${type}'`);
  return oid;
}

function canonicalAttribute(attribute: NameAttribute): string {
  const value = attribute.value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
  return `${attribute.oid}=${value}`;
}

/** Splits at separator characters that are neither escaped with a backslash nor inside quotes. */
function splitUnescaped(text: string, separators: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[++i];
    } else if (ch === '"') {
      quoted = !quoted;
      current += ch;
    } else if (!quoted && separators.includes(ch)) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (quoted) throw new DistinguishedNameError('a quoted value is not closed');
  parts.push(current);
  return parts;
}

function unescapeValue(raw: string): string {
  const value = trimUnescaped(decodePercentEscapes(raw));
  if (value.startsWith('#')) return value; // BER-encoded value: compared as written
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) return unescapeBackslashes(value.slice(1, -1));
  return unescapeBackslashes(value);
}

/** Leading and trailing spaces are not part of a value, unless escaped (`O=abc\ `). */
function trimUnescaped(value: string): string {
  let end = value.length;
  while (end > 0 && /\s/.test(value[end - 1]!) && !isEscaped(value, end - 1)) end--;
  return value.slice(0, end).trimStart();
}

function isEscaped(value: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && value[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** RFC 4514 escapes: a backslash before a special character, or before two hex digits of a UTF-8 byte. */
function unescapeBackslashes(value: string): string {
  const chars = [...value]; // code points, so characters beyond the BMP stay whole
  const bytes: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\\' && i + 1 < chars.length) {
      const hex = `${chars[i + 1]}${chars[i + 2] ?? ''}`;
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
        continue;
      }
      i += 1;
      bytes.push(...Buffer.from(chars[i]!, 'utf8'));
      continue;
    }
    bytes.push(...Buffer.from(ch, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Some clients percent-encode (spaces as %20); a lone % that starts no escape stays as it is. */
function decodePercentEscapes(value: string): string {
  if (!/%[0-9a-fA-F]{2}/.test(value)) return value;
  const chars = [...value];
  const bytes: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    const hex = `${chars[i + 1] ?? ''}${chars[i + 2] ?? ''}`;
    if (chars[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(chars[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `%` is escaped too, since some clients percent-encode and the parser decodes `%XX`. */
function escapeValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (ch) => `\\${ch}`)
    .replace(/%/g, '\\25')
    .replace(/^[ #]/, (ch) => `\\${ch}`)
    .replace(/ $/, '\\ ');
}
