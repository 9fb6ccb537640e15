import { SANDBOX_TEXT_MAX_LENGTH } from '../../../domain/limits.js';
import { text } from './sandbox-schema-parts.js';

/** A saved state of the TPP's sandbox bank (docs/sandbox.md, "Snapshots"). */

export const sandboxSnapshotCreateSchema = {
  $id: 'SandboxSnapshotCreate',
  type: 'object',
  additionalProperties: false,
  properties: {
    name: text(SANDBOX_TEXT_MAX_LENGTH, 'A label of your own, shown in the list; snapshots are named by snapshotId'),
  },
} as const;

export const sandboxSnapshotSchema = {
  $id: 'SandboxSnapshot',
  type: 'object',
  required: ['snapshotId', 'createdAt', 'bankTime', 'offsetSeconds', 'rows', 'sizeBytes', '_links'],
  properties: {
    snapshotId: { type: 'string' },
    name: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time', description: 'When it was saved, by the wall clock' },
    bankTime: { type: 'string', format: 'date-time', description: "The bank's business clock when it was saved" },
    offsetSeconds: {
      type: 'integer',
      description: "The business clock's offset from the wall clock when it was saved, which a restore sets again",
    },
    rows: { type: 'integer', description: 'Rows of the bank it holds, every table together' },
    sizeBytes: { type: 'integer', description: 'Its size as stored, compressed' },
    _links: {
      type: 'object',
      required: ['self', 'restore'],
      properties: { self: { $ref: 'Link#' }, restore: { $ref: 'Link#' } },
    },
  },
} as const;

export const sandboxSnapshotListSchema = {
  $id: 'SandboxSnapshotList',
  type: 'object',
  required: ['snapshots', 'limit'],
  properties: {
    snapshots: { type: 'array', items: { $ref: 'SandboxSnapshot#' }, description: 'Oldest first' },
    limit: { type: 'integer', description: 'The most snapshots the bank keeps' },
  },
} as const;
