import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueTppCertificate,
} from '../../src/toolkit/certificate-factory.js';
import { readRunShared, saveRunShared } from './run-shared.js';

/** Certificates for tests: a trusted CA, an untrusted one, and TPP certificates good and bad. */
export interface TppFixtures {
  ca: CertificateAndKey;
  otherCa: CertificateAndKey;
  /** PSP_PI and PSP_AI, organisation PSDNO-FSA-111111111; its key is bound to that sandbox bank. */
  tpp: CertificateAndKey;
  /** A second TPP with PSP_PI, organisation PSDNO-FSA-222222222. */
  otherTpp: CertificateAndKey;
  aisOnly: CertificateAndKey;
  expired: CertificateAndKey;
  notYetValid: CertificateAndKey;
  untrusted: CertificateAndKey;
  ecKey: CertificateAndKey;
  withoutQcStatement: CertificateAndKey;
  withoutOrganisationId: CertificateAndKey;
}

export const TPP_ID = 'PSDNO-FSA-111111111';
export const OTHER_TPP_ID = 'PSDNO-FSA-222222222';
const DAY_MS = 86_400_000;

let fixtures: Promise<TppFixtures> | undefined;

/**
 * Made once per test process, and read by the later files of a run of scripts/run-tests.ts: RSA keys
 * take about a second of CPU to generate, and every file's keys may be the same (each file has
 * databases of its own).
 */
export function tppFixtures(): Promise<TppFixtures> {
  fixtures ??= sharedFixtures();
  return fixtures;
}

async function sharedFixtures(): Promise<TppFixtures> {
  const earlier = readRunShared<TppFixtures>(FIXTURES_FILE);
  if (earlier !== undefined) return earlier;
  const made = await makeFixtures();
  saveRunShared(FIXTURES_FILE, made);
  return made;
}

const FIXTURES_FILE = 'tpp-fixtures.json';

async function makeFixtures(): Promise<TppFixtures> {
  const [ca, otherCa] = await Promise.all([
    createCertificateAuthority({ commonName: 'Test PSD2 CA', organisation: 'Test Bank, Trust & Co', country: 'NO' }),
    createCertificateAuthority({ commonName: 'Untrusted CA', organisation: 'Elsewhere', country: 'SE' }),
  ]);
  const issue = (options: Partial<Parameters<typeof issueTppCertificate>[0]> = {}) =>
    issueTppCertificate({
      issuer: ca,
      roles: ['PSP_PI', 'PSP_AI'],
      organisationId: TPP_ID,
      name: 'Test TPP AS',
      ...options,
    });
  const tpp = await issue({ serialHex: '00ab12cd34ef56' });
  const [otherTpp, aisOnly, expired, notYetValid, untrusted, ecKey, withoutQcStatement, withoutOrganisationId] =
    await Promise.all([
      issue({ organisationId: OTHER_TPP_ID, name: 'Other TPP AB', roles: ['PSP_PI'] }),
      // The same TPP's certificate with another role, over the same key: its bank is the TPP's (a
      // sandbox bank belongs to the key that made it).
      issue({ roles: ['PSP_AI'], keyPem: tpp.keyPem }),
      issue({ notBefore: new Date(Date.now() - 400 * DAY_MS), validDays: 30 }),
      issue({ notBefore: new Date(Date.now() + 10 * DAY_MS) }),
      issueTppCertificate({ issuer: otherCa, roles: ['PSP_PI'], organisationId: TPP_ID, name: 'Test TPP AS' }),
      issue({ keyType: 'ec' }),
      issue({ withoutQcStatement: true }),
      issue({ withoutOrganisationId: true }),
    ]);
  return {
    ca,
    otherCa,
    tpp,
    otherTpp,
    aisOnly,
    expired,
    notYetValid,
    untrusted,
    ecKey,
    withoutQcStatement,
    withoutOrganisationId,
  };
}
