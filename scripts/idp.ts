import { randomBytes } from 'node:crypto';
import { ACR_HIGH, startTestIdp } from '../test/support/test-idp.js';

/**
 * `npm run idp`: the test identity provider (test/support/test-idp.ts: oidc-provider with PKCE, PAR
 * and RAR, and the default data set's customers) on 127.0.0.1, for a person trying production's
 * log-in locally. It prints the PSU_OIDC_… settings to start the server with. Its log-in page is a
 * list of the customers to log in as; nothing it holds survives a restart.
 */
const publicUrl = (process.env.PUBLIC_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const port = Number(process.env.IDP_PORT ?? '4000');
const clientSecret = randomBytes(24).toString('base64url');
const idp = await startTestIdp({ redirectUri: `${publicUrl}/sca/oidc/callback`, port, clientSecret });

process.stdout.write(
  [
    `Test identity provider at ${idp.issuer} (the bank's callback: ${publicUrl}/sca/oidc/callback).`,
    'Start the server with:',
    '',
    `  PSU_OIDC_ISSUER=${idp.issuer} \\`,
    `  PSU_OIDC_CLIENT_ID=${idp.clientId} \\`,
    `  PSU_OIDC_CLIENT_SECRET=${idp.clientSecret} \\`,
    `  PSU_OIDC_ACR_VALUES='${ACR_HIGH}' \\`,
    `  PSU_OIDC_IDENTITY_CLAIM=nin PSU_OIDC_NAME_CLAIM=name \\`,
    `  PUBLIC_URL=${publicUrl} npm start`,
    '',
    'An SCA link then leads here: pick the customer to log in as. Ctrl-C stops it.',
    '',
  ].join('\n'),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void idp.close());
