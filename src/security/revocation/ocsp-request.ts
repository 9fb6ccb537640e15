import 'reflect-metadata';
import { hash } from 'node:crypto';
import { CertID, OCSPRequest, Request, TBSRequest } from '@peculiar/asn1-ocsp';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { readCertificateFields } from '../der-certificate.js';
import type { ParsedCertificate } from '../tpp-certificate.js';

/** The hashes a CertID may be made with, by OID, as node names them; SHA-1 is what every responder answers. */
const CERT_ID_HASHES: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const SHA1_OID = '1.3.14.3.2.26';

/** What names a certificate to its CA's responder: the hashes of the issuer's name and key, and the serial. */
export interface CertificateIdentity {
  issuerDer: Uint8Array;
  issuerKeyBytes: Uint8Array;
  serialNumberBytes: Uint8Array;
}

export function identityOf(certificate: ParsedCertificate, issuer: ParsedCertificate): CertificateIdentity {
  const fields = readCertificateFields(certificate.x509.raw);
  return {
    issuerDer: fields.issuerDer,
    issuerKeyBytes: readCertificateFields(issuer.x509.raw).publicKeyBytes,
    serialNumberBytes: fields.serialNumberBytes,
  };
}

/**
 * An OCSPRequest (RFC 6960, 4.1.1) for one certificate, unsigned and without a nonce: the answer is
 * kept and used for many requests, so a nonce would bind it to nothing, and responders that pre-sign
 * their answers (most of them) ignore it. SHA-1 in the CertID is a name, not a signature: RFC 5019
 * requires responders to take it, and no collision matters here.
 */
export function encodeOcspRequest(identity: CertificateIdentity): Uint8Array {
  const request = new OCSPRequest({
    tbsRequest: new TBSRequest({ requestList: [new Request({ reqCert: certIdOf(identity, SHA1_OID)! })] }),
  });
  return new Uint8Array(AsnConvert.serialize(request));
}

/** Whether a CertID of an answer names this certificate, in whichever hash the responder used. */
export function namesCertificate(certId: CertID, identity: CertificateIdentity): boolean {
  const expected = certIdOf(identity, certId.hashAlgorithm.algorithm);
  return (
    expected !== undefined &&
    sameBytes(certId.issuerNameHash.buffer, expected.issuerNameHash.buffer) &&
    sameBytes(certId.issuerKeyHash.buffer, expected.issuerKeyHash.buffer) &&
    sameBytes(certId.serialNumber, expected.serialNumber)
  );
}

function certIdOf(identity: CertificateIdentity, hashOid: string): CertID | undefined {
  const name = CERT_ID_HASHES[hashOid];
  if (name === undefined) return undefined;
  return new CertID({
    // RFC 6960 writes the hash's parameters as NULL, as OpenSSL and every responder do.
    hashAlgorithm: new AlgorithmIdentifier({ algorithm: hashOid, parameters: null }),
    issuerNameHash: new OctetString(hash(name, identity.issuerDer, 'buffer')),
    issuerKeyHash: new OctetString(hash(name, identity.issuerKeyBytes, 'buffer')),
    serialNumber: toArrayBuffer(identity.serialNumberBytes),
  });
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function sameBytes(a: ArrayBuffer, b: ArrayBuffer): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}
