import { DEFAULT_ACCOUNTS, DEFAULT_AGREEMENTS, DEFAULT_CUSTOMERS } from '../../../sandbox/default-data-set.js';
import type { OperationExamples } from './operation-example.js';
import { EXAMPLE_NOW, EXAMPLE_TODAY } from './example-values.js';

/**
 * The sandbox's own operations: its business clock and batch runs, a new start from the default data
 * set, and the TPP certificate that every signed request needs first.
 */

const BATCH_TIMES = ['06:00', '09:00', '12:00', '15:00', '18:00'];

const clock = {
  now: EXAMPLE_NOW,
  today: EXAMPLE_TODAY,
  timeZone: 'Europe/Oslo',
  offsetSeconds: 0,
  batchTimes: BATCH_TIMES,
  nextBatchRun: '2026-11-26T11:00:00.000Z',
};

/** A batch run's result: the payments it executed in full, in part (bulk) and rejected. */
const run = (slot: string, executed: number) => ({ slot, executed, partial: 0, rejected: 0 });

/** PEM shortened as the README shows it: the sandbox sends the whole of each. */
const pem = (label: string, firstLine: string) => `-----BEGIN ${label}-----\n${firstLine}\n…\n-----END ${label}-----`;

export const sandboxClockExamples: OperationExamples = {
  getSandboxClock: {
    summary: 'The bank’s clock on Thursday 26 November 2026, 11:00 in Oslo; the next batch run at 12:00',
    answer: { status: 200, body: clock },
  },
  moveSandboxClock: {
    summary:
      'One day forward: the batch run at 12:00 on the way executes the two payments due; no standing order was due',
    request: { advanceSeconds: 86400 },
    answer: {
      status: 200,
      body: {
        ...clock,
        now: '2026-11-27T10:00:00.000Z',
        today: '2026-11-27',
        offsetSeconds: 86400,
        nextBatchRun: '2026-11-27T11:00:00.000Z',
        batchRuns: [run('2026-11-26T11:00:00.000Z', 2)],
        standingOrders: [],
      },
    },
  },
  runSandboxBatch: {
    summary: 'A batch run now: the two authorised payments that were due are executed',
    answer: { status: 200, body: run(`manual:${EXAMPLE_NOW}:7f3c9a1e`, 2) },
  },
  initializeSandbox: {
    summary: 'The TPP’s test data deleted, and the default data set back',
    answer: {
      status: 200,
      body: {
        deletedCustomers: 6,
        defaultDataSet: {
          customers: Object.values(DEFAULT_CUSTOMERS).map((c) => c.customerNumber),
          accounts: DEFAULT_ACCOUNTS.length,
          agreements: DEFAULT_AGREEMENTS.length,
        },
      },
    },
  },
  issueSandboxCertificate: {
    summary: 'A TPP certificate with both PSD2 roles and its key, from the sandbox CA',
    request: { organizationIdentifier: 'PSDNO-FSA-987654321', name: 'Fjordbetaling AS', roles: ['PSP_PI', 'PSP_AI'] },
    answer: {
      status: 201,
      body: {
        certificate: pem('CERTIFICATE', 'MIIDSjCCAvGgAwIBAgIQPKcSPOdaKqBKXnpg+PqGGDAKBggqhkjOPQQDAjBEMRUw'),
        privateKey: pem('PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDYlsZsEXygpYMw'),
        keyId: 'SN=3CA7123CE75A2AA04A5E7A60F8FA8618,CA=CN=Sandbox PSD2 Test CA,O=Sandbox Bank ASA,C=NO',
        serialNumber: '3CA7123CE75A2AA04A5E7A60F8FA8618',
        organizationIdentifier: 'PSDNO-FSA-987654321',
        name: 'Fjordbetaling AS',
        roles: ['PSP_PI', 'PSP_AI'],
        validFrom: '2026-11-25T10:00:00.000Z',
        validTo: '2027-11-25T10:00:00.000Z',
        caCertificate: pem('CERTIFICATE', 'MIIByDCCAW6gAwIBAgIQZlqMjMf+u7zCMYWnGWzdBTAKBggqhkjOPQQDAjBEMRUw'),
      },
    },
  },
};
