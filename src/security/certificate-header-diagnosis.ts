import { createPrivateKey } from 'node:crypto';
import type { SignatureMistake } from './signature-mistakes.js';

const HEADER = 'TPP-Signature-Certificate';

/**
 * What is wrong with a TPP-Signature-Certificate the bank cannot read, from the forms clients send by
 * mistake. The value is never echoed: it may be a private key.
 */
export function diagnoseCertificateHeader(value: string, reason: string): SignatureMistake {
  const texts = [value, decodedText(value)];
  if (texts.some((text) => /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) || isPrivateKeyDer(value)) {
    return {
      name: 'CERTIFICATE_IS_PRIVATE_KEY',
      header: HEADER,
      text: `${HEADER} holds a private key, not the certificate. Send the certificate (base64 of its DER); the key never leaves the TPP, and one sent anywhere is no longer secret: make a new one`,
    };
  }
  if (/-----BEGIN CERTIFICATE-----/.test(value) && /\\n/.test(value)) {
    return {
      name: 'CERTIFICATE_PEM_ESCAPED',
      header: HEADER,
      text: `${HEADER} is PEM text whose line breaks arrived as the two characters \\n (read from a JSON or .env file as written?). Send base64 of the certificate's DER, one line without the BEGIN and END lines; or the PEM text with its line breaks made spaces`,
    };
  }
  const kind = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(texts.join('\n'))?.[1];
  if (kind !== undefined && kind !== 'CERTIFICATE') {
    return {
      name: 'CERTIFICATE_UNREADABLE',
      header: HEADER,
      text: `${HEADER} holds a PEM block of type ${kind}, not a CERTIFICATE. Send the TPP's signing certificate, as base64 of its DER`,
    };
  }
  if (/%2D%2D%2D%2D%2DBEGIN|%[0-9A-F]{2}/i.test(value)) {
    return {
      name: 'CERTIFICATE_UNREADABLE',
      header: HEADER,
      text: `${HEADER} is URL-encoded (%XX); a header is sent as it is. Send base64 of the certificate's DER`,
    };
  }
  if (isDerBase64(decodedText(value).trim())) {
    return {
      name: 'CERTIFICATE_UNREADABLE',
      header: HEADER,
      text: `${HEADER} is base64 of base64 of the certificate: encode its DER bytes once`,
    };
  }
  return {
    name: 'CERTIFICATE_UNREADABLE',
    header: HEADER,
    text: `${HEADER} cannot be read as a certificate (${reason}). The bank reads base64 of the DER bytes (recommended), base64 of the PEM text, or the PEM text on one line`,
  };
}

/** The value's base64 decoded as text, or '' when it is not base64. */
function decodedText(value: string): string {
  const compact = value.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(compact) ? Buffer.from(compact, 'base64').toString('latin1') : '';
}

function isDerBase64(text: string): boolean {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, 'base64')[0] === 0x30;
}

function isPrivateKeyDer(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return false;
  const der = Buffer.from(compact, 'base64');
  for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
    try {
      createPrivateKey({ key: der, format: 'der', type });
      return true;
    } catch {
      // not a key of this form
    }
  }
  return false;
}
