import type { ApiError } from '../domain/api-error.js';
import { HEADER_VALUE_MAX_LENGTH } from '../domain/limits.js';
import { diagnoseCertificateHeader } from './certificate-header-diagnosis.js';
import { CertificateFormatError, CertificateRefusedError } from './der-certificate.js';
import { DigestFormatError, type DigestValue, parseDigestHeader } from './digest.js';
import { compareDigest, diagnoseDigestFormat } from './digest-diagnosis.js';
import { shownLine, shownValue } from './explained-value.js';
import { parseHttpDate } from './http-date.js';
import { compareKeyId } from './key-id-comparison.js';
import { SIGNATURE_ALGORITHMS } from './signature-check.js';
import { type SignatureParameters, SignatureHeaderError, parseSignatureHeader } from './signature-header.js';
import type { SignatureExplanation, SignatureMistake } from './signature-mistakes.js';
import { diagnoseVerification } from './signature-verification-diagnosis.js';
import { SIGNED_WHEN_PRESENT, type SignedRequest, signedValueOf } from './signed-request.js';
import { type ParsedCertificate, decodeCertificateHeader, parseCertificate } from './tpp-certificate.js';

/** What the explainer is given: the request as the authenticator saw it, and why it was refused. */
export interface FailedAuthentication {
  request: SignedRequest;
  digestRequired: boolean;
  refusal: ApiError;
  now: number;
  dateSkewSeconds: number;
}

/** Refusals of the certificate itself, which the explainer does not judge again (trust, dates, revocation). */
const CERTIFICATE_REFUSALS: ReadonlySet<string> = new Set([
  'CERTIFICATE_INVALID',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_REVOKED',
]);

/**
 * The sandbox's answer to "why was my signature refused?" (docs/errors.md): the request looked at
 * again, each check in the order the authenticator makes it, every mismatch named with what the bank
 * computed beside what was sent. It runs only after a refusal, and only in the sandbox, so the
 * authenticator's own path is not slowed nor changed. Every echoed value is cut (explained-value.ts);
 * the certificate header and hidden headers are never echoed.
 */
export function explainFailedAuthentication(failed: FailedAuthentication): SignatureExplanation {
  const { request, refusal } = failed;
  const explanation: SignatureExplanation = { mistakes: [] };
  const mistakes = explanation.mistakes;
  const text = (name: string) => headerText(request, name);

  for (const name of [
    'Signature',
    'TPP-Signature-Certificate',
    'X-Request-ID',
    ...(failed.digestRequired ? ['Digest'] : []),
  ]) {
    const value = text(name);
    if (value === undefined || value.trim() === '') {
      mistakes.push({
        name: 'REQUIRED_HEADER_MISSING',
        header: name,
        text: `the request has no ${name} header${whyRequired(name)}`,
      });
    }
  }

  const params = readSignature(text('Signature'), mistakes);
  if (params !== undefined) explanation.signedHeaders = params.headers;
  const dateText = text('Date');
  const date = dateText === undefined ? undefined : parseHttpDate(dateText);
  if (dateText !== undefined && date === undefined) {
    mistakes.push({
      name: 'DATE_UNREADABLE',
      header: 'Date',
      text: `Date '${shownValue(dateText)}' is not an HTTP date: write it as ${new Date(failed.now).toUTCString()} (the IMF-fixdate of RFC 9110, in GMT)`,
    });
  }
  const body = request.body ?? new Uint8Array();
  const digest = readDigest(text('Digest'), body, mistakes);
  const certificate = readCertificate(text('TPP-Signature-Certificate'), mistakes);
  if (CERTIFICATE_REFUSALS.has(refusal.code) && !mistakes.some((m) => m.name === 'CERTIFICATE_REFUSED')) {
    mistakes.push(certificateRefused(refusal));
  }

  if (params !== undefined && certificate !== undefined) compareKeyId(params, certificate, explanation);
  const algorithm = params === undefined ? undefined : checkAlgorithm(params, certificate, explanation);
  if (params !== undefined) checkSignedHeaders(request, params, explanation);
  if (dateText !== undefined && date !== undefined) checkDate(dateText, date, failed, explanation);
  if (params !== undefined) {
    explanation.signingString = params.headers.map((name) => shownLine(name, signedValueOf(request, name)));
    if (certificate !== undefined && algorithm !== undefined && explanation.absentHeaders === undefined) {
      diagnoseVerification(request, params, certificate, algorithm, explanation);
    }
  }
  if (digest !== undefined) {
    const { facts, mistake } = compareDigest(digest, body);
    explanation.digest = facts;
    if (mistake !== undefined) mistakes.push(mistake);
  }
  if (refusal.code === 'ROLE_INVALID') {
    mistakes.push({
      name: 'ROLE_MISSING',
      header: 'TPP-Signature-Certificate',
      text: `${refusal.message}. How the request is signed is not the fault; send a certificate with that role (in the sandbox, POST /v1/sandbox/certificates issues one)`,
    });
  }
  namedRefusalFirst(refusal, mistakes);
  return explanation;
}

function readSignature(value: string | undefined, mistakes: SignatureMistake[]): SignatureParameters | undefined {
  if (value === undefined || value.trim() === '' || value.length > HEADER_VALUE_MAX_LENGTH) return undefined;
  try {
    return parseSignatureHeader(value);
  } catch (error) {
    if (!(error instanceof SignatureHeaderError)) throw error;
    const authorizationForm = /^\s*Signature\s+keyId\s*=/i.test(value);
    mistakes.push({
      name: 'SIGNATURE_HEADER_UNREADABLE',
      header: 'Signature',
      text: authorizationForm
        ? 'Signature starts with \'Signature \', the scheme of an Authorization header; the Signature header holds the parameters alone: keyId="…",algorithm="rsa-sha256",headers="…",signature="…"'
        : `Signature cannot be read (${error.message}): write keyId="SN=<serial hex>,CA=<issuer DN>",algorithm="rsa-sha256",headers="<names>",signature="<base64>", every value quoted`,
    });
    return undefined;
  }
}

function readDigest(
  value: string | undefined,
  body: Uint8Array,
  mistakes: SignatureMistake[],
): DigestValue[] | undefined {
  if (value === undefined) return undefined;
  try {
    return parseDigestHeader(value);
  } catch (error) {
    if (!(error instanceof DigestFormatError)) throw error;
    mistakes.push(diagnoseDigestFormat(value, body));
    return undefined;
  }
}

function readCertificate(value: string | undefined, mistakes: SignatureMistake[]): ParsedCertificate | undefined {
  if (value === undefined || value.trim() === '' || value.length > HEADER_VALUE_MAX_LENGTH) return undefined;
  try {
    return parseCertificate(decodeCertificateHeader(value));
  } catch (error) {
    if (error instanceof CertificateFormatError) mistakes.push(diagnoseCertificateHeader(value, error.message));
    else if (error instanceof CertificateRefusedError)
      mistakes.push({
        name: 'CERTIFICATE_REFUSED',
        header: 'TPP-Signature-Certificate',
        text: `TPP-Signature-Certificate is a certificate no qualified trust service would issue (tppMessages say why): get another; how the request is signed is not the fault`,
      });
    else throw error;
    return undefined;
  }
}

function certificateRefused(refusal: ApiError): SignatureMistake {
  return {
    name: 'CERTIFICATE_REFUSED',
    header: 'TPP-Signature-Certificate',
    text: `${refusal.message}. The certificate itself is refused; any mistake listed after this one is in how the request is signed`,
  };
}

function checkAlgorithm(
  params: SignatureParameters,
  certificate: ParsedCertificate | undefined,
  explanation: SignatureExplanation,
): { hash: string; keyType: string } | undefined {
  const accepted = Object.keys(SIGNATURE_ALGORITHMS);
  explanation.algorithm = { received: shownValue(params.algorithm), accepted };
  const algorithm = Object.hasOwn(SIGNATURE_ALGORITHMS, params.algorithm)
    ? SIGNATURE_ALGORITHMS[params.algorithm]
    : undefined;
  if (algorithm === undefined) {
    const hs2019 =
      params.algorithm === 'hs2019' ? ' (hs2019 leaves the algorithm to the key; this bank asks for it by name)' : '';
    explanation.mistakes.push({
      name: 'ALGORITHM_UNSUPPORTED',
      header: 'Signature',
      text: `algorithm "${explanation.algorithm.received}" is not taken${hs2019}: sign with RSA and SHA-256 and write algorithm="rsa-sha256", as the specification says (rsa-sha512 is taken too)`,
    });
    return undefined;
  }
  const keyType = certificate?.publicKey.asymmetricKeyType;
  if (certificate !== undefined && keyType !== algorithm.keyType) {
    explanation.mistakes.push({
      name: 'ALGORITHM_MISMATCH',
      header: 'Signature',
      text: `algorithm "${params.algorithm}" needs an RSA key, and the certificate's key is ${keyType?.toUpperCase() ?? 'of a type node cannot read'}: sign with the RSA key of an RSA certificate`,
    });
    return undefined;
  }
  return algorithm;
}

function checkSignedHeaders(
  request: SignedRequest,
  params: SignatureParameters,
  explanation: SignatureExplanation,
): void {
  const unsigned = SIGNED_WHEN_PRESENT.filter(
    (name) => request.headers[name] !== undefined && !params.headers.includes(name),
  );
  if (unsigned.length > 0) {
    explanation.unsignedHeaders = [...unsigned];
    explanation.mistakes.push({
      name: 'REQUIRED_HEADER_UNSIGNED',
      header: 'Signature',
      text: `the request carries ${unsigned.join(', ')}, which headers="${params.headers.join(' ')}" does not list: every one of ${SIGNED_WHEN_PRESENT.join(', ')} that the request carries is signed. Sign headers="${[...params.headers, ...unsigned].join(' ')}"`,
    });
  }
  const absent = params.headers.filter((name) => signedValueOf(request, name) === undefined);
  if (absent.length > 0) {
    explanation.absentHeaders = absent;
    explanation.mistakes.push({
      name: 'SIGNED_HEADER_ABSENT',
      header: 'Signature',
      text: `headers lists ${absent.join(', ')}, which the request does not carry: send ${absent.length === 1 ? 'it' : 'them'} with the value signed, or leave ${absent.length === 1 ? 'it' : 'them'} out of headers and the signing string`,
    });
  }
}

function checkDate(
  dateText: string,
  date: number,
  failed: FailedAuthentication,
  explanation: SignatureExplanation,
): void {
  const skewSeconds = Math.round((date - failed.now) / 1000);
  explanation.date = {
    received: shownValue(dateText),
    serverTime: new Date(failed.now).toUTCString(),
    skewSeconds,
    allowedSkewSeconds: failed.dateSkewSeconds,
  };
  if (Math.abs(skewSeconds) <= failed.dateSkewSeconds) return;
  const hours = Math.round(Math.abs(skewSeconds) / 3600);
  const wholeHours =
    hours >= 1 && Math.abs(Math.abs(skewSeconds) - hours * 3600) <= failed.dateSkewSeconds
      ? ` It is ${hours} hour${hours === 1 ? '' : 's'} off: a local time written as GMT?`
      : '';
  explanation.mistakes.push({
    name: 'DATE_SKEWED',
    header: 'Date',
    text: `Date is ${Math.abs(skewSeconds)} s ${skewSeconds < 0 ? 'behind' : 'ahead of'} the server clock (${explanation.date.serverTime}); at most ${failed.dateSkewSeconds} s either way is allowed.${wholeHours} Write the time of signing in GMT, from a clock kept by NTP`,
  });
}

/**
 * Every refusal is named: when the explainer found nothing at the header the request was refused at
 * (an X-Request-ID too long, …), the refusal's own messages lead, as OTHER.
 */
function namedRefusalFirst(refusal: ApiError, mistakes: SignatureMistake[]): void {
  const refusedAt = refusal.tppMessages[0]?.path?.replace(/^header:/, '');
  if (refusedAt !== undefined && mistakes.some((m) => m.header === refusedAt)) return;
  mistakes.unshift(
    ...refusal.tppMessages.map((message) => ({
      name: 'OTHER' as const,
      header: message.path?.replace(/^header:/, '') ?? '',
      text: message.text ?? refusal.message,
    })),
  );
}

function headerText(request: SignedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function whyRequired(name: string): string {
  switch (name) {
    case 'Digest':
      return ': a create carries SHA-256=<base64 of the SHA-256 of the body>, and signs it';
    case 'TPP-Signature-Certificate':
      return ': it carries the certificate whose key signed, as base64 of its DER';
    case 'X-Request-ID':
      return ': every request has one (a UUID), and signs it';
    default:
      return ': every request is signed (draft-cavage, with the key of the TPP certificate)';
  }
}
