import 'reflect-metadata';
import { once } from 'node:events';
import { createPrivateKey, createPublicKey, hash, sign, webcrypto } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import {
  BasicOCSPResponse,
  CertID,
  CertStatus,
  OCSPRequest,
  OCSPResponse,
  OCSPResponseStatus,
  ResponderID,
  ResponseBytes,
  ResponseData,
  RevokedInfo,
  SingleResponse,
  id_kp_OCSPSigning,
  id_pkix_ocsp_basic,
} from '@peculiar/asn1-ocsp';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';

/**
 * A CA's OCSP responder for tests (RFC 6960 over HTTP POST), on 127.0.0.1: it answers what `statuses`
 * says of each serial, signed by `signer`, at the test's clock. Every field a test may spoil to see
 * the bank refuse it is a setting: the signer, the certificates sent along, the serial answered for,
 * the dates, the response status, the HTTP status.
 */
export interface OcspAnswering {
  /** By serial (hex, as @peculiar/x509 prints it); a serial not listed is 'good'. */
  statuses: Map<string, { status: 'good' | 'revoked' | 'unknown'; revokedAt?: Date }>;
  /** Whose key signs: the CA by default. */
  signer: CertificateAndKey;
  /** Certificates sent in the answer (a delegated responder's). */
  certs: string[];
  /** thisUpdate and nextUpdate, from the clock; nextUpdate undefined leaves it out. */
  thisUpdateOffsetMs: number;
  nextUpdateOffsetMs: number | undefined;
  /** Answer about another serial than the one asked. */
  answerForSerial: string | undefined;
  /** Not successful: the responder's refusal. */
  responseStatus: OCSPResponseStatus;
  /** Not 200: no OCSP response at all. */
  httpStatus: number;
  /** Sent as the body instead of an OCSP response. */
  body: Buffer | undefined;
}

export interface TestOcspResponder {
  url: string;
  /** How many requests came to each path. */
  asked: Record<string, number>;
  answering: OcspAnswering;
  /** Back to good answers signed by the CA, valid for an hour. */
  reset(): void;
  close(): Promise<void>;
}

const HOUR = 3_600_000;

export async function startOcspResponder(ca: CertificateAndKey, clock: () => number): Promise<TestOcspResponder> {
  const defaults = (): OcspAnswering => ({
    statuses: new Map(),
    signer: ca,
    certs: [],
    thisUpdateOffsetMs: 0,
    nextUpdateOffsetMs: HOUR,
    answerForSerial: undefined,
    responseStatus: OCSPResponseStatus.successful,
    httpStatus: 200,
    body: undefined,
  });
  const responder: TestOcspResponder = {
    url: '',
    asked: {},
    answering: defaults(),
    reset: () => {
      responder.answering = defaults();
    },
    close: async () => {
      server.close();
      await once(server, 'close');
    },
  };
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    responder.asked[path] = (responder.asked[path] ?? 0) + 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { answering } = responder;
      if (answering.httpStatus !== 200 || request.headers['content-type'] !== 'application/ocsp-request') {
        response.writeHead(answering.httpStatus === 200 ? 415 : answering.httpStatus).end();
        return;
      }
      const asked = AsnConvert.parse(Buffer.concat(chunks), OCSPRequest);
      const body = answering.body ?? answer(asked, answering, clock());
      response.writeHead(200, { 'content-type': 'application/ocsp-response', 'content-length': body.length }).end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  responder.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return responder;
}

function answer(request: OCSPRequest, answering: OcspAnswering, now: number): Buffer {
  if (answering.responseStatus !== OCSPResponseStatus.successful)
    return Buffer.from(AsnConvert.serialize(new OCSPResponse({ responseStatus: answering.responseStatus })));
  const responses = request.tbsRequest.requestList.map(({ reqCert }) => {
    const certID =
      answering.answerForSerial === undefined
        ? reqCert
        : new CertID({ ...reqCert, serialNumber: hexBytes(answering.answerForSerial) });
    const serial = withoutLeadingZeros(Buffer.from(reqCert.serialNumber).toString('hex'));
    const said = [...answering.statuses].find(([hex]) => withoutLeadingZeros(hex) === serial)?.[1] ?? {
      status: 'good',
    };
    const certStatus =
      said.status === 'revoked'
        ? new CertStatus({ revoked: new RevokedInfo({ revocationTime: said.revokedAt ?? new Date(now - 60_000) }) })
        : said.status === 'unknown'
          ? new CertStatus({ unknown: null })
          : new CertStatus({ good: null });
    return new SingleResponse({
      certID,
      certStatus,
      thisUpdate: new Date(now + answering.thisUpdateOffsetMs),
      ...(answering.nextUpdateOffsetMs === undefined
        ? {}
        : { nextUpdate: new Date(now + answering.nextUpdateOffsetMs) }),
    });
  });
  const publicKey = createPublicKey(answering.signer.keyPem).export({ type: 'spki', format: 'der' });
  const keyBits = AsnConvert.parse(publicKey, SubjectPublicKeyInfo).subjectPublicKey;
  const tbsResponseData = new ResponseData({
    responderID: new ResponderID({ byKey: new OctetString(hash('sha1', Buffer.from(keyBits), 'buffer')) }),
    producedAt: new Date(now),
    responses,
  });
  const tbs = Buffer.from(AsnConvert.serialize(tbsResponseData));
  const key = createPrivateKey(answering.signer.keyPem);
  const basic = new BasicOCSPResponse({
    tbsResponseData,
    signatureAlgorithm:
      key.asymmetricKeyType === 'ec'
        ? new AlgorithmIdentifier({ algorithm: '1.2.840.10045.4.3.2' }) // ecdsa-with-SHA256
        : new AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.11', parameters: null }), // sha256WithRSAEncryption
    signature: toArrayBuffer(sign('sha256', tbs, key)),
    ...(answering.certs.length === 0
      ? {}
      : { certs: answering.certs.map((pem) => AsnConvert.parse(new x509.X509Certificate(pem).rawData, Certificate)) }),
  });
  return Buffer.from(
    AsnConvert.serialize(
      new OCSPResponse({
        responseStatus: OCSPResponseStatus.successful,
        responseBytes: new ResponseBytes({
          responseType: id_pkix_ocsp_basic,
          response: new OctetString(AsnConvert.serialize(basic)),
        }),
      }),
    ),
  );
}

/**
 * A responder certificate issued by `issuer` (its own EC key): with id-kp-OCSPSigning, as a CA
 * delegates its answers (RFC 6960, 4.2.2.2), unless `withoutOcspSigning`.
 */
export async function issueResponderCertificate(
  issuer: CertificateAndKey,
  options: { withoutOcspSigning?: boolean } = {},
): Promise<CertificateAndKey> {
  const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const signingKey = await webcrypto.subtle.importKey(
    'pkcs8',
    createPrivateKey(issuer.keyPem).export({ format: 'der', type: 'pkcs8' }),
    EC,
    false,
    ['sign'],
  );
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: '0a1b2c',
    subject: 'CN=Test OCSP Responder',
    issuer: new x509.X509Certificate(issuer.certPem).subjectName,
    notBefore: new Date(Date.now() - 24 * HOUR),
    notAfter: new Date(Date.now() + 30 * 24 * HOUR),
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm: EC,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(options.withoutOcspSigning === true ? [] : [new x509.ExtendedKeyUsageExtension([id_kp_OCSPSigning])]),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    certPem: certificate.toString('pem'),
    keyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`,
  };
}

function withoutLeadingZeros(hex: string): string {
  return hex.toLowerCase().replace(/^(00)+/, '');
}

function hexBytes(hex: string): ArrayBuffer {
  return toArrayBuffer(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'));
}

function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
