/**
 * The identity provider settings a production start needs (PSU_OIDC_…), for tests that start one
 * without a PSU logging in: discovery waits for the first log-in, so no provider need listen there.
 */
export const PRODUCTION_LOG_IN = {
  PSU_OIDC_ISSUER: 'https://idp.bank.example',
  PSU_OIDC_CLIENT_ID: 'psd2-bank',
  PSU_OIDC_CLIENT_SECRET: 'not-a-real-secret',
} as const;
