/**
 * The mistakes the sandbox's signature explanation names (docs/errors.md, "Why was my signature
 * refused?"), with when each is named. The names are stable: a TPP's test may assert them.
 */
export const SIGNATURE_MISTAKES = {
  REQUIRED_HEADER_MISSING:
    'The request lacks Signature, TPP-Signature-Certificate or X-Request-ID, or Digest on a create.',
  SIGNATURE_HEADER_UNREADABLE:
    'The Signature header is not keyId="…",algorithm="…",headers="…",signature="…" (for example it starts with "Signature ", the form of an Authorization header).',
  DATE_UNREADABLE: 'Date is not an HTTP date such as "Tue, 15 Nov 1994 08:12:31 GMT".',
  DIGEST_ALGORITHM:
    'Digest has no algorithm name, or one the bank does not take: it is SHA-256=<base64> (or SHA-512=).',
  DIGEST_ENCODING: 'The Digest value is not the base64 of a hash (for example it is hex).',
  CERTIFICATE_PEM_ESCAPED:
    'TPP-Signature-Certificate is PEM text whose line breaks arrived as the two characters \\n (from a JSON or .env file).',
  CERTIFICATE_IS_PRIVATE_KEY:
    'TPP-Signature-Certificate holds a private key, not the certificate (it is never echoed).',
  CERTIFICATE_UNREADABLE:
    'TPP-Signature-Certificate is not a certificate the bank can read, in any of the forms it takes.',
  CERTIFICATE_REFUSED:
    'The certificate itself is refused (untrusted CA, expired, revoked, weak, no PSD2 QCStatement); how the request is signed is not the fault.',
  KEYID_SERIAL: "keyId's SN is not the serial of TPP-Signature-Certificate (for example it is written in decimal).",
  KEYID_ISSUER:
    "keyId's CA is not the issuer of TPP-Signature-Certificate (for example it is the certificate's own subject).",
  ALGORITHM_UNSUPPORTED: 'algorithm is not rsa-sha256 or rsa-sha512 (hs2019, hmac-sha256, …).',
  ALGORITHM_MISMATCH:
    "algorithm does not fit the certificate's key, or the signature was made with another hash than algorithm names.",
  REQUIRED_HEADER_UNSIGNED:
    'The request carries date, digest, x-request-id, psu-id, psu-corporate-id or tpp-redirect-uri, but headers does not list it.',
  SIGNED_HEADER_ABSENT: 'headers lists a header the request does not carry.',
  DATE_SKEWED: 'Date is further from the server clock than the allowed skew.',
  SIGNED_HEADERS_ORDER: 'The signature is over the same headers in another order than headers lists them.',
  SIGNING_STRING_FORM:
    'The signing string was built in another form: header names not lower-cased, CRLF line ends, a trailing line break, no space after the colon, an upper-case method in (request-target).',
  SIGNED_HEADER_CHANGED:
    "The signature was made with the certificate's key, over another text than the signing string the bank built: a signed header was changed after signing, or the string was built otherwise.",
  SIGNED_WITH_OTHER_KEY: 'The signature was not made with the private key of TPP-Signature-Certificate.',
  SIGNATURE_ENCODING:
    "The signature value is not one signature of the certificate's key: its length is wrong (base64 twice, hex, cut short).",
  SIGNATURE_DOES_NOT_VERIFY: 'The signature does not verify, and the bank cannot tell more (a key that is not RSA).',
  DIGEST_OF_OTHER_BODY: 'Digest is the hash of another body than the one received.',
  ROLE_MISSING: 'The certificate lacks the PSD2 role the operation needs; the signature is not the fault.',
  OTHER: 'A refusal the explainer has no more to say about than tppMessages (an X-Request-ID too long, …).',
} as const;

export type SignatureMistakeName = keyof typeof SIGNATURE_MISTAKES;

/** One mistake: its name, the header it is in, and what to do, in words a developer can act on. */
export interface SignatureMistake {
  name: SignatureMistakeName;
  header: string;
  text: string;
}

/**
 * What the sandbox adds to the answer of a failed TPP authentication (`signatureExplanation`):
 * what did not match, and what the bank computed to find it. Production never has it.
 */
export interface SignatureExplanation {
  /** What did not match, in the order the bank checks: the first is the one the request was refused for. */
  mistakes: SignatureMistake[];
  /** The Signature's `headers` as the bank read it (lower case, in order). */
  signedHeaders?: readonly string[];
  /** The signing string the bank built from the request as received, a line per signed header. */
  signingString?: string[];
  /** Whether the signature verifies over that signing string with the certificate's key. */
  signatureVerifies?: boolean;
  /** Headers the request carries that must be signed, but `headers` does not list. */
  unsignedHeaders?: string[];
  /** Headers `headers` lists that the request does not carry. */
  absentHeaders?: string[];
  /** keyId's serial and CA, beside the certificate's. */
  keyId?: { serial: string; certificateSerial: string; issuer: string; certificateIssuer: string };
  /** The Digest sent, beside the one the bank computed over the body received. */
  digest?: { algorithm: string; received: string; computed: string };
  /** Date sent, beside the server clock. */
  date?: { received: string; serverTime: string; skewSeconds: number; allowedSkewSeconds: number };
  /** algorithm sent, beside the ones the bank takes. */
  algorithm?: { received: string; accepted: string[] };
}
