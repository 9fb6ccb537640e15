import { createHash, verify } from 'node:crypto';
import type { SignatureParameters } from './signature-header.js';
import type { SignatureExplanation, SignatureMistake } from './signature-mistakes.js';
import { recoverSignedDigest, signatureBytesOf } from './signed-digest.js';
import { type SignedRequest, buildSigningString } from './signed-request.js';
import { findSignedText } from './signing-string-variants.js';
import type { ParsedCertificate } from './tpp-certificate.js';

/**
 * Whether the signature verifies over the signing string the bank builds, and when it does not,
 * why: the RSA signature is opened with the certificate's public key. When it does not open, another
 * key made it (or it is no signature of this key's length); when it opens, the key is right and the
 * hash inside names the text that was signed, which is looked for among the texts clients commonly
 * sign by mistake (signing-string-variants.ts). The request carries every signed header (the caller
 * has found none absent).
 */
export function diagnoseVerification(
  request: SignedRequest,
  params: SignatureParameters,
  certificate: ParsedCertificate,
  algorithm: { hash: string },
  explanation: SignatureExplanation,
): void {
  const signingString = buildSigningString(request, params.headers);
  let verifies = false;
  try {
    verifies = verify(algorithm.hash, Buffer.from(signingString, 'utf8'), certificate.publicKey, params.signature);
  } catch {
    verifies = false;
  }
  explanation.signatureVerifies = verifies;
  if (verifies) return;
  const mistakes = explanation.mistakes;
  const signed = recoverSignedDigest(params.signature, certificate.publicKey);
  if (signed === undefined) {
    mistakes.push(notOpened(params, certificate));
    return;
  }
  if (signed.hash !== algorithm.hash) {
    mistakes.push({
      name: 'ALGORITHM_MISMATCH',
      header: 'Signature',
      text: `the signature was made with ${signed.hash.toUpperCase()}, but algorithm="${params.algorithm}" names ${algorithm.hash.toUpperCase()}: hash with SHA-256 for rsa-sha256 (or write the algorithm it was made with, if the bank takes it)`,
    });
    if (createHash(signed.hash).update(signingString, 'utf8').digest().equals(signed.digest)) return;
  }
  const found = findSignedText(request, params.headers, signed);
  mistakes.push(
    found === undefined
      ? {
          name: 'SIGNED_HEADER_CHANGED',
          header: 'Signature',
          text: `the signature was made with the key of TPP-Signature-Certificate, but over another text than the signing string below: the value of a signed header (${params.headers.join(', ')}) differs from the one signed. Was a header set again after signing (X-Request-ID, Date), or changed on the way? Compare the client's signing string with these lines`,
        }
      : { ...found, header: 'Signature' },
  );
}

/** A signature the certificate's key does not open: another key made it, or it is not one signature. */
function notOpened(params: SignatureParameters, certificate: ParsedCertificate): SignatureMistake {
  const bytes = signatureBytesOf(certificate.publicKey);
  if (bytes === undefined) {
    return {
      name: 'SIGNATURE_DOES_NOT_VERIFY',
      header: 'Signature',
      text: "the signature does not verify with the certificate's key over the signing string below",
    };
  }
  if (params.signature.length !== bytes) {
    return {
      name: 'SIGNATURE_ENCODING',
      header: 'Signature',
      text: `the signature is ${params.signature.length} bytes; one made by the certificate's ${bytes * 8}-bit key is ${bytes}. Send base64 of the signature's bytes, once (not of its hex or base64 text)`,
    };
  }
  return {
    name: 'SIGNED_WITH_OTHER_KEY',
    header: 'Signature',
    text: `the signature was not made with the private key of TPP-Signature-Certificate (serial ${certificate.serial.toString(16).toUpperCase()}): sign with the key that belongs to the certificate sent, or send the certificate of the key that signs`,
  };
}
