import type { OperationExamples } from './operation-example.js';
import { link } from './operation-example.js';
import { EXAMPLE_NOW } from './example-values.js';

/**
 * A TPP's bank saved after its test suite's setup and restored between tests (docs/sandbox.md,
 * "Snapshots"): the default data set, 31 rows.
 */

const ID = '0bb3d105-be8f-4ee6-90b6-a66016b3c6b6';
const SELF = `/v1/sandbox/snapshots/${ID}`;

const snapshot = {
  snapshotId: ID,
  createdAt: EXAMPLE_NOW,
  bankTime: EXAMPLE_NOW,
  offsetSeconds: 0,
  rows: 31,
  sizeBytes: 2408,
  _links: { self: link(SELF, 'GET', 'DELETE'), restore: link(`${SELF}/restore`, 'POST') },
  name: 'after setup',
};

export const sandboxSnapshotExamples: OperationExamples = {
  createSandboxSnapshot: {
    summary: 'The bank saved after the test suite’s setup',
    request: { name: 'after setup' },
    answer: { status: 201, body: snapshot },
  },
  getSandboxSnapshotList: {
    summary: 'The bank’s one snapshot, of the 20 it keeps',
    answer: { status: 200, body: { snapshots: [snapshot], limit: 20 } },
  },
  getSandboxSnapshot: {
    summary: 'A snapshot: when it was saved, the bank’s clock then, and its size',
    answer: { status: 200, body: snapshot },
  },
  restoreSandboxSnapshot: {
    summary: 'The bank back as it was saved: its data and its clock',
    answer: { status: 200, body: snapshot },
  },
  deleteSandboxSnapshot: {
    summary: 'A snapshot no longer needed, deleted',
    answer: { status: 204 },
  },
};
