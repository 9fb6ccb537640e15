import { ApiError } from '../domain/api-error.js';
import { parseOrganisationIdentifier } from '../domain/organisation-identifier.js';
import type { PspRole } from '../domain/psp-role.js';
import { formatDistinguishedName } from '../security/distinguished-name.js';
import { readPublicKeyInput } from '../security/public-key-input.js';
import { parseCertificate, readPemCertificates } from '../security/tpp-certificate.js';
import type { CertificateAndKey } from '../security/certificate-issuer.js';

export interface SandboxCertificateRequest {
  organizationIdentifier: string;
  name: string;
  roles: PspRole[];
  validDays?: number;
  /** A key the TPP holds (SPKI PEM): certified instead of a new one, which keeps its sandbox bank. */
  publicKey?: string;
}

/** A TPP certificate from the sandbox CA, with its key: the server keeps neither. */
export interface IssuedSandboxCertificate {
  certificate: string;
  /** Absent when the TPP sent its own public key. */
  privateKey?: string;
  /** The keyId of the Signature header this certificate signs with. */
  keyId: string;
  serialNumber: string;
  organizationIdentifier: string;
  name: string;
  roles: PspRole[];
  validFrom: string;
  validTo: string;
  /** The sandbox CA's certificate, which issued it. */
  caCertificate: string;
}

/** The authority names of the QCStatement by NCAId; another authority is named by its identifier. */
const AUTHORITY_NAMES: Record<string, string> = { 'NO-FSA': 'Finanstilsynet' };

/**
 * Issues TPP certificates from the sandbox CA over HTTP (POST /v1/sandbox/certificates), so that a
 * TPP that runs the sandbox elsewhere (a CI service, another machine) gets going with only its
 * address (docs/decisions/0172). The CA is read on the first issue, and the
 * certificate library loaded then, so that a start that issues nothing pays for neither.
 */
export class SandboxCertificateService {
  private issuer: Promise<CertificateAndKey> | undefined;

  constructor(private readonly readIssuer: () => Promise<CertificateAndKey>) {}

  async issue(request: SandboxCertificateRequest): Promise<IssuedSandboxCertificate> {
    const identifier = parseOrganisationIdentifier(request.organizationIdentifier);
    if (typeof identifier === 'string') {
      const text = `$.organizationIdentifier ${identifier}`;
      throw new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path: '$.organizationIdentifier', text }]);
    }
    const publicKeyPem =
      request.publicKey === undefined ? undefined : readPublicKeyInput(request.publicKey, '$.publicKey').pem;
    this.issuer ??= this.readIssuer().catch((error: unknown) => {
      // A CA that could not be read now may be readable on the next request (a file being replaced).
      this.issuer = undefined;
      throw error;
    });
    const [issuer, { issueTppCertificate }] = await Promise.all([
      this.issuer,
      import('../security/certificate-issuer.js'),
    ]);
    const issued = await issueTppCertificate({
      issuer,
      roles: request.roles,
      organisationId: request.organizationIdentifier,
      name: request.name,
      country: identifier.country,
      ncaId: identifier.ncaId,
      ncaName: AUTHORITY_NAMES[identifier.ncaId] ?? identifier.ncaId,
      ...(request.validDays === undefined ? {} : { validDays: request.validDays }),
      ...(publicKeyPem === undefined ? {} : { publicKeyPem }),
    });
    const certificate = parseCertificate(readPemCertificates(issued.certPem)[0]!);
    return {
      certificate: issued.certPem,
      ...(publicKeyPem === undefined ? { privateKey: issued.keyPem } : {}),
      keyId: `SN=${certificate.x509.serialNumber},CA=${formatDistinguishedName(certificate.issuer)}`,
      serialNumber: certificate.x509.serialNumber,
      organizationIdentifier: request.organizationIdentifier,
      name: request.name,
      roles: request.roles,
      validFrom: certificate.notBefore.toISOString(),
      validTo: certificate.notAfter.toISOString(),
      caCertificate: issuer.certPem,
    };
  }
}
