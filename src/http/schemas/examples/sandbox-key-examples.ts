import type { OperationExamples } from './operation-example.js';
import { EXAMPLE_NOW } from './example-values.js';

/**
 * The keys that open a TPP's sandbox bank (docs/sandbox.md): the first request's key, and a second
 * one (a CI runner's) bound by a request signed with the first; and a /docs link, which binds a key
 * made in a browser (`tpp docs`).
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

/** A /docs link's token: the TPP, the key that asked, the expiry and a nonce, signed (as a console link's). */
const DOCS_TOKEN =
  'eyJ0IjoiUFNETk8tRlNBLTEyMzQ1Njc4OSIsImsiOiIzYjBmNmMyZCIsImUiOjE3OTU2ODc1MDAwMDAsIm4iOiJxN1lSZ2xhX1BzZDNmQkt4WTJ3In0.Qm8dX2vKk1fH0cXw9o1nJ3rT6uY5bA7sD4eF8gH2jKl';

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
  createSandboxDocsLink: {
    summary: 'A link that makes /docs sign as this TPP: open it in a browser within five minutes, once',
    answer: {
      status: 201,
      body: { href: `http://127.0.0.1:8080/docs/#bind=${DOCS_TOKEN}`, expiresAt: '2026-11-26T10:05:00.000Z' },
    },
  },
  bindSandboxDocsLinkKey: {
    summary: 'The key the browser made, bound to the bank of the TPP that asked for the link',
    request: { token: DOCS_TOKEN, publicKey: `${CI_KEY}\n` },
    answer: { status: 201, body: { organizationIdentifier: 'PSDNO-FSA-123456789', keySha256: SECOND.keySha256 } },
  },
  unbindSandboxBankKey: {
    summary: 'The CI runner’s key unbound: its certificates no longer open the bank',
    answer: { status: 204 },
  },
};
