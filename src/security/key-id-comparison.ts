import { formatDistinguishedName, sameDistinguishedName } from './distinguished-name.js';
import { shownValue } from './explained-value.js';
import type { SignatureParameters } from './signature-header.js';
import type { SignatureExplanation } from './signature-mistakes.js';
import type { ParsedCertificate } from './tpp-certificate.js';

/**
 * keyId beside the certificate sent: its serial (compared as a number) and CA (as a set of
 * attributes), with the usual reasons they differ (a serial in decimal, the certificate's own subject
 * for its issuer).
 */
export function compareKeyId(
  params: SignatureParameters,
  certificate: ParsedCertificate,
  explanation: SignatureExplanation,
): void {
  const serialText = /SN\s*=\s*(?:0x)?([0-9A-Fa-f:]*)/.exec(params.keyId.text)?.[1] ?? '';
  const certificateSerial = certificate.serial.toString(16).toUpperCase();
  const certificateIssuer = formatDistinguishedName(certificate.issuer);
  explanation.keyId = {
    serial: shownValue(serialText),
    certificateSerial,
    issuer: shownValue(formatDistinguishedName(params.keyId.issuer)),
    certificateIssuer,
  };
  if (params.keyId.serial !== certificate.serial) {
    const decimal = /^[0-9]+$/.test(serialText) && BigInt(serialText) === certificate.serial;
    explanation.mistakes.push({
      name: 'KEYID_SERIAL',
      header: 'Signature',
      text: decimal
        ? `keyId's SN=${serialText} is the certificate's serial in decimal; write it in hex: SN=${certificateSerial}`
        : `keyId names serial ${shownValue(serialText)}, but TPP-Signature-Certificate has serial ${certificateSerial}: keyId names another certificate than the one sent (one from before a renewal?). Write SN=${certificateSerial}`,
    });
  }
  if (!sameDistinguishedName(params.keyId.issuer, certificate.issuer)) {
    const subject = sameDistinguishedName(params.keyId.issuer, certificate.subject);
    explanation.mistakes.push({
      name: 'KEYID_ISSUER',
      header: 'Signature',
      text: subject
        ? `keyId's CA is the certificate's own subject; CA names the issuer of the certificate: CA=${certificateIssuer}`
        : `keyId's CA '${explanation.keyId.issuer}' is not the issuer of TPP-Signature-Certificate: write CA=${certificateIssuer} (any attribute order and spelling of it is taken)`,
    });
  }
}
