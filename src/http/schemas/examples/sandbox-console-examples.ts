import type { OperationExamples } from './operation-example.js';

/**
 * The sandbox console's link (docs/console.md): what `tpp console` asks for and prints. The token is
 * the TPP's identifier, the link's expiry and a nonce, signed: one of its own at each request.
 */

const TOKEN =
  'eyJ0IjoiUFNETk8tRlNBLTEyMzQ1Njc4OSIsImUiOjE3OTU2ODc1MDAwMDAsIm4iOiJyX0hIVnRYUFp5ZjNaaGFCZkNfenBRIn0.xQ08rVqeJFEXon4KpBPHFdGhed4JTHfp7TW_7ZqAwk4';

export const sandboxConsoleExamples: OperationExamples = {
  createSandboxConsoleLink: {
    summary: 'A link to the TPP’s console, to open in a browser within five minutes, once',
    answer: {
      status: 201,
      body: {
        href: `http://127.0.0.1:8080/console/enter?token=${TOKEN}`,
        expiresAt: '2026-11-26T10:05:00.000Z',
      },
    },
  },
};
