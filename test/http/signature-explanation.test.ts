import assert from 'node:assert/strict';
import { X509Certificate, createHash, createPrivateKey, sign } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH } from '../../src/domain/limits.js';
import { authenticate } from '../../src/http/hooks/authenticate.js';
import { waitsOnlyWhenNeeded } from '../../src/http/hooks/waits-only-when-needed.js';
import { headerError } from '../../src/security/header-error.js';
import type { TppAuthenticator } from '../../src/security/tpp-authenticator.js';
import { readCertificateFields } from '../../src/security/der-certificate.js';
import { formatDistinguishedName } from '../../src/security/distinguished-name.js';
import type { SignatureExplanation, SignatureMistakeName } from '../../src/security/signature-mistakes.js';
import { type SignOptions, signRequest } from '../../src/toolkit/request-signer.js';
import { CROSS_BORDER_PATH, PSU_ID } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';
import type { TppFixtures } from '../support/tpp-fixtures.js';

/**
 * Issue 33, section 2: the commonest ways a TPP gets a signed request wrong, each made by signing a
 * correct request with the toolkit and breaking it, and sent over HTTP to the app listening. In the
 * sandbox the answer's signatureExplanation names the mistake and shows what did not match; in
 * production the answer is the one it was before the explainer existed, byte for byte but the
 * request's id (the messages below were taken from the server before the explainer was added).
 */
const BODY = JSON.stringify({
  instructedAmount: { amount: '150.00', currency: 'NOK' },
  creditorName: 'Svenska Leverantör AB',
});
const OTHER_BODY = JSON.stringify({
  instructedAmount: { amount: '15000.00', currency: 'NOK' },
  creditorName: 'Svenska Leverantör AB',
});
const SERIAL_HEX = 'AB12CD34EF56';
const ISSUER = 'CN=Test PSD2 CA,O=Test Bank\\, Trust & Co,C=NO';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

interface BrokenRequest {
  /** How the toolkit signs it (as the test TPP, with PSU-ID, signed over every header it carries). */
  sign?: Partial<SignOptions>;
  headers?: Record<string, string>;
  /** Breaks the signed headers before they are sent. */
  tamper?: (headers: Record<string, string>) => void;
  /** A body other than the one signed. */
  sentBody?: string;
}

interface Answer {
  status: number;
  text: string;
}

async function send(baseUrl: string, fixtures: TppFixtures, broken: BrokenRequest): Promise<Answer> {
  const headers = signRequest({
    method: 'POST',
    url: CROSS_BORDER_PATH,
    body: BODY,
    credentials: fixtures.tpp,
    ...broken.sign,
    headers: { 'PSU-ID': PSU_ID, ...broken.headers },
  });
  headers['content-type'] = 'application/json';
  headers['accept'] = 'application/json';
  broken.tamper?.(headers);
  const response = await fetch(`${baseUrl}${CROSS_BORDER_PATH}`, {
    method: 'POST',
    headers,
    body: broken.sentBody ?? BODY,
  });
  return { status: response.status, text: await response.text() };
}

function replaceParameter(headers: Record<string, string>, name: string, value: string): void {
  const pattern = new RegExp(`${name}="[^"]*"`);
  assert.match(headers.signature!, pattern);
  headers.signature = headers.signature!.replace(pattern, `${name}="${value}"`);
}

function subjectOf(pem: string): string {
  return formatDistinguishedName(readCertificateFields(new X509Certificate(pem).raw).subject);
}

/** A signature made by hand, as a TPP's own code makes it: over a signing string of its own making. */
function signedByHand(
  fixtures: TppFixtures,
  signingString: (h: Record<string, string>) => string,
  hash = 'sha256',
): (headers: Record<string, string>) => void {
  return (headers) => {
    const signature = sign(hash, Buffer.from(signingString(headers)), createPrivateKey(fixtures.tpp.keyPem));
    replaceParameter(headers, 'signature', signature.toString('base64'));
  };
}

interface Mistake {
  label: string;
  request: (fixtures: TppFixtures) => BrokenRequest;
  /** Today's answer, as production still gives it: status, code, the header it names and its message. */
  status: number;
  code: keyof typeof PUBLISHED;
  header: string;
  message: string | RegExp;
  /** The mistake the sandbox's explanation names first, and what else it must say. */
  named: SignatureMistakeName;
  explains: (explanation: SignatureExplanation, fixtures: TppFixtures) => void;
}

/** The tppMessage code each answer's code is published as (error-catalogue.ts). */
const PUBLISHED = {
  SIGNATURE_INVALID: 'BAD_REQUEST',
  FORMAT_ERROR: 'FORMAT_ERROR',
  HTTP_HEADER_REQUIRED: 'HTTP_HEADER_REQUIRED',
  CERTIFICATE_INVALID: 'FORBIDDEN',
  ROLE_INVALID: 'FORBIDDEN',
} as const;

const SIGNED_ORDER = 'date digest x-request-id psu-id';
const DOES_NOT_VERIFY = (headers: string) =>
  `Signature does not verify with the key of TPP-Signature-Certificate over the signed headers '${headers}' (was it made with another key, or was a signed header changed?)`;

/** The commonest first (issue 33 names most of them), then others TPPs make. */
const MISTAKES: Mistake[] = [
  {
    label: 'the signed headers listed in another order than they were signed',
    request: () => ({ tamper: (h) => replaceParameter(h, 'headers', 'x-request-id date digest psu-id') }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: DOES_NOT_VERIFY('x-request-id date digest psu-id'),
    named: 'SIGNED_HEADERS_ORDER',
    explains: (e) => {
      assert.match(e.mistakes[0]!.text, new RegExp(`in the order '${SIGNED_ORDER}'`));
      assert.equal(e.signatureVerifies, false);
      assert.deepEqual(
        e.signingString?.map((line) => line.split(':')[0]),
        ['x-request-id', 'date', 'digest', 'psu-id'],
      );
    },
  },
  {
    label: 'X-Request-ID signed, then changed',
    request: () => ({ tamper: (h) => void (h['x-request-id'] = 'changed-after-signing') }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: DOES_NOT_VERIFY(SIGNED_ORDER),
    named: 'SIGNED_HEADER_CHANGED',
    explains: (e) => {
      assert.ok(e.signingString?.includes('x-request-id: changed-after-signing'), JSON.stringify(e.signingString));
      assert.ok(e.signingString?.includes(`psu-id: ${PSU_ID}`));
      assert.equal(e.signatureVerifies, false);
    },
  },
  {
    label: 'a Digest of another body',
    request: () => ({ sentBody: OTHER_BODY }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'Digest',
    message:
      'Digest does not match the body: the SHA-256 of the body as received differs (was the body changed after signing, or re-serialised?)',
    named: 'DIGEST_OF_OTHER_BODY',
    explains: (e) => {
      assert.deepEqual(e.digest, { algorithm: 'SHA-256', received: sha256(BODY), computed: sha256(OTHER_BODY) });
      assert.equal(e.signatureVerifies, true, 'the signature is right; only the body is another');
    },
  },
  {
    label: 'a Digest without its algorithm name',
    request: () => ({ headers: { Digest: sha256(BODY) } }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'Digest',
    message:
      'Digest cannot be used: algorithm TLI1HFK6AQZAFEVIWWDJHFUXDPGELAEJ5HI+LWJCUIQ is not supported; use SHA-256 or SHA-512',
    named: 'DIGEST_ALGORITHM',
    explains: (e) =>
      assert.match(e.mistakes[0]!.text, new RegExp(`no algorithm name: write SHA-256=${escape(sha256(BODY))}`)),
  },
  {
    label: 'the certificate as PEM text whose line breaks are written as \\n',
    request: (f) => ({
      tamper: (h) => void (h['tpp-signature-certificate'] = f.tpp.certPem.trim().replace(/\n/g, '\\n')),
    }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'TPP-Signature-Certificate',
    message:
      'TPP-Signature-Certificate cannot be read as a certificate: the PEM block is not base64. Send the certificate as base64 of its DER bytes or of its PEM text',
    named: 'CERTIFICATE_PEM_ESCAPED',
    explains: (e) => {
      assert.match(e.mistakes[0]!.text, /line breaks arrived as the two characters \\n/);
      assert.equal(e.keyId, undefined, 'without a certificate nothing is compared with it');
    },
  },
  {
    label: 'the keyId serial in decimal',
    request: () => ({
      tamper: (h) => void (h.signature = h.signature!.replace(`SN=${SERIAL_HEX}`, `SN=${BigInt(`0x${SERIAL_HEX}`)}`)),
    }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: 'Signature keyId names serial 188097240559446, but TPP-Signature-Certificate has serial AB12CD34EF56',
    named: 'KEYID_SERIAL',
    explains: (e) => {
      assert.match(e.mistakes[0]!.text, /in decimal; write it in hex: SN=AB12CD34EF56/);
      assert.deepEqual(e.keyId, {
        serial: '188097240559446',
        certificateSerial: SERIAL_HEX,
        issuer: ISSUER,
        certificateIssuer: ISSUER,
      });
    },
  },
  {
    label: "the keyId CA naming the certificate's own subject",
    request: (f) => ({
      tamper: (h) => void (h.signature = h.signature!.replace(/,CA=[^"]*"/, `,CA=${subjectOf(f.tpp.certPem)}"`)),
    }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: `Signature keyId names CA 'CN=Test TPP AS,organizationIdentifier=PSDNO-FSA-111111111,O=Test TPP AS,C=NO', but TPP-Signature-Certificate is issued by '${ISSUER}'`,
    named: 'KEYID_ISSUER',
    explains: (e, f) => {
      assert.match(e.mistakes[0]!.text, /the certificate's own subject/);
      assert.equal(e.keyId?.issuer, subjectOf(f.tpp.certPem));
      assert.equal(e.keyId?.certificateIssuer, ISSUER);
    },
  },
  {
    label: 'X-Request-ID left out of headers',
    request: () => ({ sign: { signedHeaders: ['date', 'digest', 'psu-id'] } }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message:
      'Signature leaves out x-request-id, which the request carries (headers="date digest psu-id"); every one of date, digest, x-request-id, psu-id, psu-corporate-id, tpp-redirect-uri that is present must be signed',
    named: 'REQUIRED_HEADER_UNSIGNED',
    explains: (e) => {
      assert.deepEqual(e.unsignedHeaders, ['x-request-id']);
      assert.equal(e.signatureVerifies, true, 'what is signed verifies; x-request-id is missing from it');
    },
  },
  {
    label: 'a header in headers that the request does not carry',
    request: () => ({ tamper: (h) => void delete h['psu-id'] }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: "Signature signs header 'psu-id', but the request has no such header",
    named: 'SIGNED_HEADER_ABSENT',
    explains: (e) => {
      assert.deepEqual(e.absentHeaders, ['psu-id']);
      assert.equal(e.signingString?.at(-1), 'psu-id: <absent from the request>');
    },
  },
  {
    label: 'algorithm hs2019',
    request: () => ({ tamper: (h) => replaceParameter(h, 'algorithm', 'hs2019') }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'Signature',
    message: "Signature algorithm 'hs2019' is not supported; use rsa-sha256",
    named: 'ALGORITHM_UNSUPPORTED',
    explains: (e) => assert.deepEqual(e.algorithm, { received: 'hs2019', accepted: ['rsa-sha256', 'rsa-sha512'] }),
  },
  {
    label: 'signed with another key',
    request: (f) => ({ sign: { credentials: { certPem: f.tpp.certPem, keyPem: f.otherTpp.keyPem } } }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: DOES_NOT_VERIFY(SIGNED_ORDER),
    named: 'SIGNED_WITH_OTHER_KEY',
    explains: (e) => {
      assert.match(
        e.mistakes[0]!.text,
        /not made with the private key of TPP-Signature-Certificate \(serial AB12CD34EF56\)/,
      );
      assert.equal(e.mistakes.length, 1);
    },
  },
  {
    label: 'a Date an hour behind the server clock',
    request: () => ({ sign: { now: new Date(Date.now() - 3_600_000) } }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Date',
    message:
      /^Date is 360\d s away from the server clock \([A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\); at most 300 s is allowed\. Check the client's clock and sign each request when it is sent$/,
    named: 'DATE_SKEWED',
    explains: (e) => {
      assert.ok(
        e.date !== undefined && e.date.skewSeconds <= -3600 && e.date.skewSeconds > -3610,
        JSON.stringify(e.date),
      );
      assert.equal(e.date.allowedSkewSeconds, 300);
      assert.match(e.mistakes[0]!.text, /behind the server clock .* 1 hour off: a local time written as GMT\?/);
      assert.equal(e.signatureVerifies, true);
    },
  },
  {
    label: 'header names in the signing string as the request writes them',
    request: (f) => ({
      tamper: signedByHand(f, (h) =>
        [`Date: ${h.date}`, `Digest: ${h.digest}`, `X-Request-ID: ${h['x-request-id']}`, `PSU-ID: ${h['psu-id']}`].join(
          '\n',
        ),
      ),
    }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: DOES_NOT_VERIFY(SIGNED_ORDER),
    named: 'SIGNING_STRING_FORM',
    explains: (e) => assert.match(e.mistakes[0]!.text, /header names as the request writes them .* lower case/),
  },
  {
    label: 'no Digest on a create',
    request: () => ({ tamper: (h) => void delete h.digest }),
    status: 400,
    code: 'HTTP_HEADER_REQUIRED',
    header: 'Digest',
    message: 'header Digest is required on create operations: SHA-256=<base64 of the SHA-256 of the body>',
    named: 'REQUIRED_HEADER_MISSING',
    explains: (e) => {
      assert.equal(e.mistakes[0]!.header, 'Digest');
      assert.ok(e.signingString?.includes('digest: <absent from the request>'));
    },
  },
  {
    label: 'the Signature header in the form of an Authorization header',
    request: () => ({ tamper: (h) => void (h.signature = `Signature ${h.signature}`) }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'Signature',
    message:
      'Signature cannot be read: cannot read a name="value" parameter at position 0: \'Signature keyId="SN=AB12CD34EF\'. Expected keyId="SN=<serial hex>,CA=<issuer DN>",algorithm="rsa-sha256",headers="...",signature="<base64>"',
    named: 'SIGNATURE_HEADER_UNREADABLE',
    explains: (e) =>
      assert.match(e.mistakes[0]!.text, /starts with 'Signature ', the scheme of an Authorization header/),
  },
  {
    label: 'the private key sent as the certificate',
    request: (f) => ({
      tamper: (h) => void (h['tpp-signature-certificate'] = Buffer.from(f.tpp.keyPem).toString('base64')),
    }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'TPP-Signature-Certificate',
    message:
      'TPP-Signature-Certificate cannot be read as a certificate: its base64 decodes neither to a DER certificate nor to PEM text. Send the certificate as base64 of its DER bytes or of its PEM text',
    named: 'CERTIFICATE_IS_PRIVATE_KEY',
    explains: (e) => assert.match(e.mistakes[0]!.text, /holds a private key, not the certificate/),
  },
  {
    label: 'a Digest in hex',
    request: () => ({ headers: { Digest: `SHA-256=${createHash('sha256').update(BODY).digest('hex')}` } }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'Digest',
    message: 'Digest cannot be used: the SHA-256 value is not the base64 of a 32-byte hash',
    named: 'DIGEST_ENCODING',
    explains: (e) =>
      assert.match(
        e.mistakes[0]!.text,
        new RegExp(`is hex \\(it is the body's SHA-256\\): send SHA-256=${escape(sha256(BODY))}`),
      ),
  },
  {
    label: 'signed with SHA-512 under algorithm rsa-sha256',
    request: (f) => ({
      tamper: signedByHand(
        f,
        (h) =>
          SIGNED_ORDER.split(' ')
            .map((name) => `${name}: ${h[name]}`)
            .join('\n'),
        'sha512',
      ),
    }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: DOES_NOT_VERIFY(SIGNED_ORDER),
    named: 'ALGORITHM_MISMATCH',
    explains: (e) => {
      assert.match(e.mistakes[0]!.text, /made with SHA512, but algorithm="rsa-sha256" names SHA256/);
      assert.equal(e.mistakes.length, 1, 'the signing string itself is right');
    },
  },
  {
    label: 'the lines of the signing string joined with CRLF',
    request: (f) => ({
      tamper: signedByHand(f, (h) =>
        SIGNED_ORDER.split(' ')
          .map((name) => `${name}: ${h[name]}`)
          .join('\r\n'),
      ),
    }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: DOES_NOT_VERIFY(SIGNED_ORDER),
    named: 'SIGNING_STRING_FORM',
    explains: (e) => assert.match(e.mistakes[0]!.text, /joined with CRLF/),
  },
  {
    label: 'the signature base64-encoded twice',
    request: () => ({
      tamper: (h) => {
        const value = /signature="([^"]*)"/.exec(h.signature!)![1]!;
        replaceParameter(h, 'signature', Buffer.from(value).toString('base64'));
      },
    }),
    status: 401,
    code: 'SIGNATURE_INVALID',
    header: 'Signature',
    message: DOES_NOT_VERIFY(SIGNED_ORDER),
    named: 'SIGNATURE_ENCODING',
    explains: (e) =>
      assert.match(
        e.mistakes[0]!.text,
        /the signature is 344 bytes; one made by the certificate's 2048-bit key is 256/,
      ),
  },
  {
    label: 'an X-Request-ID too long',
    request: () => ({ sign: { requestId: 'x'.repeat(201) } }),
    status: 400,
    code: 'FORMAT_ERROR',
    header: 'X-Request-ID',
    message: 'X-Request-ID is 201 characters long; at most 200 are accepted',
    named: 'OTHER',
    explains: (e) => assert.equal(e.signatureVerifies, true),
  },
  {
    label: 'a certificate from a CA the bank does not trust',
    request: (f) => ({ sign: { credentials: f.untrusted } }),
    status: 401,
    code: 'CERTIFICATE_INVALID',
    header: 'TPP-Signature-Certificate',
    message:
      "TPP-Signature-Certificate 'Test TPP AS' is issued by 'CN=Untrusted CA,O=Elsewhere,C=SE', which is not a CA this bank trusts",
    named: 'CERTIFICATE_REFUSED',
    explains: (e) => {
      assert.equal(e.signatureVerifies, true, 'the request is signed right; the certificate is the fault');
      assert.equal(e.mistakes.length, 1);
    },
  },
  {
    label: 'a certificate without the role PSP_PI on a payment',
    request: (f) => ({ sign: { credentials: f.aisOnly } }),
    status: 401,
    code: 'ROLE_INVALID',
    header: 'TPP-Signature-Certificate',
    message:
      'TPP-Signature-Certificate lacks the PSD2 role PSP_PI that this operation needs; its QCStatement grants only PSP_AI',
    named: 'ROLE_MISSING',
    explains: (e) => {
      assert.equal(e.signatureVerifies, true);
      assert.match(e.mistakes[0]!.text, /POST \/v1\/sandbox\/certificates/);
    },
  },
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The error body of a mistake as the server wrote it before the explainer, byte for byte: the
 * serializer's key order, the tppMessage's text with the precise code after it where it is mapped.
 */
function bodyBefore(m: Mistake, id: string, message: string): string {
  const published = PUBLISHED[m.code];
  return JSON.stringify({
    id,
    system: 'psd2-pis',
    status: m.status,
    code: m.code,
    message,
    tppMessages: [
      {
        category: 'ERROR',
        code: published,
        path: `header:${m.header}`,
        text: published === m.code ? message : `${message} (${m.code})`,
      },
    ],
  });
}

/** Checks the answer is today's for the mistake, and gives the rest of the body. */
function assertAnswerBefore(m: Mistake, answer: Answer): Record<string, unknown> {
  assert.equal(answer.status, m.status, answer.text);
  const { signatureExplanation, ...body } = JSON.parse(answer.text) as {
    id: string;
    message: string;
    signatureExplanation?: unknown;
  };
  if (typeof m.message === 'string') assert.equal(body.message, m.message);
  else assert.match(body.message, m.message);
  const message = typeof m.message === 'string' ? m.message : body.message;
  assert.equal(JSON.stringify(body), bodyBefore(m, body.id, message));
  return { signatureExplanation };
}

let sandbox: TestApp;
let production: TestApp;
let sandboxUrl: string;
let productionUrl: string;

before(async () => {
  [sandbox, production] = await Promise.all([startTestApp(), startTestApp({ mode: 'production' })]);
  sandboxUrl = await sandbox.app.listen({ port: 0, host: '127.0.0.1' });
  productionUrl = await production.app.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await Promise.all([sandbox.close(), production.close()]);
});

describe('the commonest signing mistakes, in production: answered exactly as before the explainer', () => {
  for (const m of MISTAKES) {
    it(`${m.label}: ${m.status} ${m.code} at header:${m.header}, the same bytes, nothing added`, async () => {
      const answer = await send(productionUrl, production.fixtures, m.request(production.fixtures));
      const { signatureExplanation } = assertAnswerBefore(m, answer);
      assert.equal(signatureExplanation, undefined);
      assert.doesNotMatch(answer.text, /signatureExplanation|signingString/);
    });
  }
});

describe('the commonest signing mistakes, in the sandbox: the same answer, and signatureExplanation names the mistake', () => {
  for (const m of MISTAKES) {
    it(`${m.label}: named ${m.named}`, async () => {
      const answer = await send(sandboxUrl, sandbox.fixtures, m.request(sandbox.fixtures));
      const { signatureExplanation } = assertAnswerBefore(m, answer);
      const explanation = signatureExplanation as SignatureExplanation;
      assert.ok(explanation !== undefined, `no signatureExplanation in ${answer.text}`);
      assert.equal(explanation.mistakes[0]?.name, m.named, JSON.stringify(explanation.mistakes));
      assert.equal(
        explanation.mistakes[0]?.header,
        m.header,
        'the first mistake is at the header the request was refused at',
      );
      m.explains(explanation, sandbox.fixtures);
    });
  }
});

describe('the explanation echoes the request within bounds, and never its secrets', () => {
  const SANDBOX_DOCUMENT = () => sandbox.app.swagger() as unknown as OpenApiDocument;

  it('cuts a long signed value to SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH, with its length', async () => {
    const uri = `https://tpp.example/${'a'.repeat(1980)}`;
    const answer = await send(sandboxUrl, sandbox.fixtures, {
      headers: { 'TPP-Redirect-URI': uri },
      tamper: (h) => void (h['x-request-id'] = 'changed-after-signing'),
    });
    const explanation = (JSON.parse(answer.text) as { signatureExplanation: SignatureExplanation })
      .signatureExplanation;
    assert.equal(explanation.mistakes[0]!.name, 'SIGNED_HEADER_CHANGED');
    const line = explanation.signingString!.find((l) => l.startsWith('tpp-redirect-uri: '))!;
    assert.equal(
      line,
      `tpp-redirect-uri: ${uri.slice(0, SIGNATURE_EXPLANATION_VALUE_MAX_LENGTH)}… (${uri.length} characters)`,
    );
    assert.ok(answer.text.length < 10_000, `the answer is ${answer.text.length} characters`);
  });

  it('shows a signed national identity number by its length only', async () => {
    const answer = await send(sandboxUrl, sandbox.fixtures, {
      headers: { 'X-PSU-IDENTITY': '13039319955' },
      sign: { signedHeaders: [...SIGNED_ORDER.split(' '), 'x-psu-identity'] },
      tamper: (h) => void (h['x-request-id'] = 'changed-after-signing'),
    });
    const explanation = (JSON.parse(answer.text) as { signatureExplanation: SignatureExplanation })
      .signatureExplanation;
    assert.equal(explanation.signingString?.at(-1), 'x-psu-identity: <not shown: 11 characters>');
    assert.doesNotMatch(answer.text, /13039319955/);
  });

  it('never echoes a private key sent as the certificate', async () => {
    const keyBase64 = Buffer.from(sandbox.fixtures.tpp.keyPem).toString('base64');
    const keyBody = sandbox.fixtures.tpp.keyPem.replace(/-----[A-Z ]+-----|\s/g, '');
    const answer = await send(sandboxUrl, sandbox.fixtures, {
      tamper: (h) => void (h['tpp-signature-certificate'] = keyBase64),
    });
    assert.match(answer.text, /CERTIFICATE_IS_PRIVATE_KEY/);
    for (let at = 0; at + 16 <= keyBody.length; at += 16) {
      assert.ok(!answer.text.includes(keyBody.slice(at, at + 16)), 'a piece of the key is in the answer');
      assert.ok(!answer.text.includes(keyBase64.slice(at, at + 16)), 'a piece of the header is in the answer');
    }
  });

  it('is in the sandbox OpenAPI document as a sandbox-only part of the error body, and not in production’s', () => {
    const sandboxSchemas = SANDBOX_DOCUMENT().components.schemas;
    assert.deepEqual(sandboxSchemas.Error?.properties?.signatureExplanation, {
      $ref: '#/components/schemas/SignatureExplanation',
    });
    assert.deepEqual(sandboxSchemas.Unauthorised?.properties?.signatureExplanation, {
      $ref: '#/components/schemas/SignatureExplanation',
    });
    assert.match(sandboxSchemas.SignatureExplanation?.description ?? '', /^Sandbox only/);
    const productionDocument = JSON.stringify(production.app.swagger());
    assert.doesNotMatch(productionDocument, /signatureExplanation|SignatureExplanation/);
  });
});

describe('an explainer that fails', () => {
  it('leaves the refusal as it is: the same 4xx, without an explanation, and the fault logged', async () => {
    const refusal = headerError('SIGNATURE_INVALID', 'Signature', 'does not verify');
    const authenticator = {
      authenticateUnrevoked: () => {
        throw refusal;
      },
      explain: () => {
        throw new Error('a fault of the explainer');
      },
    } as unknown as TppAuthenticator;
    const logged: unknown[] = [];
    const request = {
      method: 'GET',
      originalUrl: '/v1/probe',
      headers: {},
      rawBody: null,
      signatureExplanation: null,
      log: { error: (entry: unknown) => logged.push(entry) },
    } as unknown as FastifyRequest;
    const hook = waitsOnlyWhenNeeded(authenticate(authenticator, { role: 'any', digestRequired: false }, true));
    const failure = await new Promise<unknown>((resolve) => {
      hook.call(sandbox.app, request, {} as FastifyReply, resolve);
    });
    assert.equal(failure, refusal);
    assert.equal(request.signatureExplanation, null);
    assert.equal(logged.length, 1);
  });
});

interface OpenApiDocument {
  components: {
    schemas: Record<string, { description?: string; properties?: Record<string, unknown> } | undefined>;
  };
}
