import 'reflect-metadata';
import { constants, verify } from 'node:crypto';
import {
  BasicOCSPResponse,
  OCSPResponse,
  OCSPResponseStatus,
  id_kp_OCSPSigning,
  id_pkix_ocsp_basic,
} from '@peculiar/asn1-ocsp';
import { AsnConvert } from '@peculiar/asn1-schema';
import type { Certificate } from '@peculiar/asn1-x509';
import { ExtendedKeyUsageExtension, X509Certificate as PeculiarCertificate } from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { OCSP_ANSWER_MAX_AGE_MS, OCSP_CLOCK_SKEW_MS } from '../../domain/limits.js';
import { acceptedSignatureHash, signatureAlgorithmName } from '../certificate-policy.js';
import { readAlgorithm } from '../der-certificate.js';
import { type ParsedCertificate, parseCertificate } from '../tpp-certificate.js';
import { type CertificateIdentity, namesCertificate } from './ocsp-request.js';

/** What a CA's responder said of one certificate, once its answer is verified. */
export interface OcspAnswer {
  status: 'good' | 'revoked' | 'unknown';
  revokedAt: Date | undefined;
  thisUpdate: Date;
  nextUpdate: Date | undefined;
}

/** An answer the bank does not take; the message says why, after "the OCSP answer from <url>". */
export class OcspAnswerError extends Error {}

/**
 * Reads and verifies an OCSP response (RFC 6960) for one certificate, as section 3.2 asks: signed by
 * the CA that issued the certificate, or by a responder certificate that CA issued for the purpose
 * (id-kp-OCSPSigning, valid now); about this certificate (its CertID); and current (thisUpdate not
 * ahead of the clock, nextUpdate not passed). Anything else throws OcspAnswerError.
 */
export function readOcspAnswer(
  bytes: Uint8Array,
  identity: CertificateIdentity,
  issuer: ParsedCertificate,
  now: number,
): OcspAnswer {
  const basic = basicResponseOf(bytes);
  checkSigned(basic, issuer, now);
  const single = basic.tbsResponseData.responses.find((response) => namesCertificate(response.certID, identity));
  if (single === undefined) throw new OcspAnswerError('does not answer for this certificate (no CertID matches it)');
  const { thisUpdate, nextUpdate } = single;
  if (thisUpdate.getTime() > now + OCSP_CLOCK_SKEW_MS)
    throw new OcspAnswerError(`is dated ahead of the bank's clock (thisUpdate ${thisUpdate.toISOString()})`);
  if (nextUpdate !== undefined && nextUpdate.getTime() < now)
    throw new OcspAnswerError(`is out of date (nextUpdate ${nextUpdate.toISOString()})`);
  if (nextUpdate === undefined && thisUpdate.getTime() < now - OCSP_ANSWER_MAX_AGE_MS)
    throw new OcspAnswerError(`has no nextUpdate and is too old to rely on (thisUpdate ${thisUpdate.toISOString()})`);
  const { certStatus } = single;
  return {
    status: certStatus.revoked !== undefined ? 'revoked' : certStatus.good !== undefined ? 'good' : 'unknown',
    revokedAt: certStatus.revoked?.revocationTime,
    thisUpdate,
    nextUpdate,
  };
}

function basicResponseOf(bytes: Uint8Array): BasicOCSPResponse {
  let response: OCSPResponse;
  try {
    response = AsnConvert.parse(bytes, OCSPResponse);
  } catch (error) {
    throw new OcspAnswerError(`is not an OCSP response (${(error as Error).message})`);
  }
  if (response.responseStatus !== OCSPResponseStatus.successful) {
    const status = OCSPResponseStatus[response.responseStatus] ?? String(response.responseStatus);
    throw new OcspAnswerError(`is no status but the responder's refusal '${status}'`);
  }
  if (response.responseBytes?.responseType !== id_pkix_ocsp_basic)
    throw new OcspAnswerError('is not a basic OCSP response (id-pkix-ocsp-basic)');
  try {
    return AsnConvert.parse(response.responseBytes.response.buffer, BasicOCSPResponse);
  } catch (error) {
    throw new OcspAnswerError(`is not a basic OCSP response (${(error as Error).message})`);
  }
}

/**
 * The signature must verify under the CA's key or a delegated responder's. The responderID names the
 * signer, but names prove nothing: each key the CA vouches for is tried, and one must verify.
 */
function checkSigned(basic: BasicOCSPResponse, issuer: ParsedCertificate, now: number): void {
  const algorithm = readAlgorithm(asn1js.fromBER(AsnConvert.serialize(basic.signatureAlgorithm)).result);
  const accepted = acceptedSignatureHash(algorithm);
  if (accepted === undefined)
    throw new OcspAnswerError(
      `is signed with ${signatureAlgorithmName(algorithm)}; the bank takes RSA or ECDSA with SHA-256, SHA-384 or SHA-512`,
    );
  const delegates = (basic.certs ?? []).flatMap((certificate) => delegateOf(certificate, issuer, now));
  const data = new Uint8Array(basic.tbsResponseDataRaw ?? AsnConvert.serialize(basic.tbsResponseData));
  const signature = new Uint8Array(basic.signature);
  const signed = [issuer, ...delegates].some((signer) => {
    try {
      const key = accepted.pss
        ? {
            key: signer.publicKey,
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: constants.RSA_PSS_SALTLEN_AUTO,
          }
        : signer.publicKey;
      return verify(accepted.hash.toLowerCase().replace('-', ''), data, key, signature);
    } catch {
      return false; // a key of another type than the algorithm's
    }
  });
  if (!signed)
    throw new OcspAnswerError(
      `is not signed by '${issuer.name}' nor by a responder certificate it issued for OCSP (id-kp-OCSPSigning)`,
    );
}

/**
 * A certificate sent with the answer, when the CA issued it to sign OCSP answers and it is valid now
 * (RFC 6960, 4.2.2.2); else none. It is held to the bank's policy as any certificate it relies on.
 * Its own revocation is not asked: responder certificates are short-lived and carry id-pkix-ocsp-nocheck.
 */
function delegateOf(certificate: Certificate, issuer: ParsedCertificate, now: number): ParsedCertificate[] {
  let delegate: ParsedCertificate;
  try {
    delegate = parseCertificate(Buffer.from(AsnConvert.serialize(certificate)));
  } catch {
    return [];
  }
  const usages = new PeculiarCertificate(delegate.x509.raw).getExtension(ExtendedKeyUsageExtension)?.usages ?? [];
  const issued = delegate.x509.checkIssued(issuer.x509) && delegate.x509.verify(issuer.publicKey);
  const valid = delegate.notBefore.getTime() <= now && now <= delegate.notAfter.getTime();
  return issued && valid && usages.includes(id_kp_OCSPSigning) ? [delegate] : [];
}
