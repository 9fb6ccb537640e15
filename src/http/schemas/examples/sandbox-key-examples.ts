import type { OperationExamples } from './operation-example.js';
import { EXAMPLE_NOW } from './example-values.js';

/**
 * The keys that open a TPP's sandbox bank (docs/sandbox.md): the first request's key, and a second
 * one (a CI runner's) bound by a request signed with the first.
 */

/** A CI runner's RSA public key (2048 bits), as `openssl rsa -pubout` writes it. */
const CI_KEY = [
  '-----BEGIN PUBLIC KEY-----',
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2iZenhkZsuqp6RGL/0k+',
  '4BnONU5Lr6PhgAPE/EBM8GK4O6G8YePhvmDs2kutvwyZfq5mAWx7J3bhPZAzGilE',
  '+tk6AtXkcOiN5XPJqYxw/a14qxxD5lJ9sBbAB4U6Ro8xWSXIO+XNK0ZfHw8cFdP1',
  '8HGx8pc2J6JboxaZEBuh5/4p1/fmdb6heP6YeP5AhMqLJg2CA4OIwWCTLShOucQD',
  'eXKAUgBwH9rwAM5L4w7LuaUUqu/pZEUcXaiJ5nDk087rqyU9NweMEXi+PsQY8IEJ',
  'M88ARTlvMdQ6BzwCB9Av+tfQW2g1kuBu7aDwWQ/yz6mFdE4TReAPhiUE1qBBDNyi',
  '2wIDAQAB',
  '-----END PUBLIC KEY-----',
].join('\n');

const FIRST = {
  keySha256: '3b0f6c2d8e41a97f5c2e1d0b9a8f7e6d5c4b3a29181706f5e4d3c2b1a0f9e8d7',
  boundAt: '2026-11-20T08:14:03.512Z',
};
const SECOND = { keySha256: 'faa6fbde8d86e5289bb6da57262e862ff9db916042947f75eceb20714bd67ce1', boundAt: EXAMPLE_NOW };

export const sandboxKeyExamples: OperationExamples = {
  getSandboxBankKeys: {
    summary: 'The bank’s two keys: the one that made it (and signed this request) and a CI runner’s',
    answer: {
      status: 200,
      body: {
        keys: [
          { ...FIRST, current: true },
          { ...SECOND, current: false },
        ],
        limit: 10,
      },
    },
  },
  bindSandboxBankKey: {
    summary: 'A CI runner’s key bound, signed with the key that made the bank',
    request: { publicKey: `${CI_KEY}\n` },
    answer: {
      status: 201,
      body: {
        keys: [
          { ...FIRST, current: true },
          { ...SECOND, current: false },
        ],
        limit: 10,
      },
    },
  },
  unbindSandboxBankKey: {
    summary: 'The CI runner’s key unbound: its certificates no longer open the bank',
    answer: { status: 204 },
  },
};
