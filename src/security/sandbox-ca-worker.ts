import { parentPort, workerData } from 'node:worker_threads';
import { type AuthorityOptions, createCertificateAuthority } from './certificate-issuer.js';

/**
 * Makes the sandbox CA in a worker thread (sandbox-ca.ts): loading the certificate library and
 * making the certificate are a large part of a first start, which the main thread spends building
 * the app meanwhile (docs/decisions/0025). Posts the CA's
 * certificate and key (PEM); a failure ends the worker with its error.
 */
void createCertificateAuthority(workerData as AuthorityOptions).then((ca) => parentPort!.postMessage(ca));
