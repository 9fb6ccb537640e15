import { Problem } from './setting-problem.js';

/** How the bank's server authenticates to the PSU's identity provider at its token endpoint. */
export type PsuOidcClientAuth =
  { kind: 'client-secret'; secret: string } | { kind: 'private-key-jwt'; keyFile: string };

/** The bank's identity provider, where the PSU logs in over OpenID Connect (docs/sca.md, "Production log-in"). */
export interface PsuOidcSettings {
  /** The issuer; its discovery document is at `/.well-known/openid-configuration` under it. */
  issuer: string;
  clientId: string;
  clientAuth: PsuOidcClientAuth;
  /** The scope asked for, `openid` among its values. */
  scope: string;
  /** The acr values asked for; the ID token's `acr` must be one of them. Empty: no acr is asked for or checked. */
  acrValues: string[];
  /** The ID token claim that holds the PSU's national identity number. */
  identityClaim: string;
  /** The ID token claim with the PSU's name, asked for with the identity claim; undefined: none asked for. */
  nameClaim: string | undefined;
}

/** The settings' raw values, as the environment gives them (empty when unset). */
export interface PsuOidcVariables {
  PSU_OIDC_ISSUER: string;
  PSU_OIDC_CLIENT_ID: string;
  PSU_OIDC_CLIENT_SECRET: string;
  PSU_OIDC_CLIENT_KEY_FILE: string;
  PSU_OIDC_SCOPE: string;
  PSU_OIDC_ACR_VALUES: string;
  PSU_OIDC_IDENTITY_CLAIM: string;
  PSU_OIDC_NAME_CLAIM: string;
}

/** A claim's name as providers spell them (nin, nnin_altsub, socialno, urn:…); nothing that needs escaping anywhere. */
const CLAIM_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;
/** acr values and scopes are space-separated lists of printable ASCII without quotes or backslashes (RFC 6749, 3.3). */
const LIST_VALUE = /^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/;

/**
 * The PSU's log-in over OpenID Connect: undefined when no provider is set (the sandbox then keeps
 * its own log-in). Production must set one: without it no PSU can log in, and the server would
 * accept payments no one can authorise.
 */
export function parsePsuOidcSettings(
  v: PsuOidcVariables,
  production: boolean,
): PsuOidcSettings | undefined | Problem[] {
  const given = [v.PSU_OIDC_ISSUER, v.PSU_OIDC_CLIENT_ID, v.PSU_OIDC_CLIENT_SECRET, v.PSU_OIDC_CLIENT_KEY_FILE];
  if (given.every((value) => value === '')) {
    return production
      ? [
          new Problem(
            'PSU_OIDC_ISSUER, PSU_OIDC_CLIENT_ID and PSU_OIDC_CLIENT_SECRET or PSU_OIDC_CLIENT_KEY_FILE must be set in production mode: they name the bank\'s identity provider, where PSUs log in (docs/sca.md, "Production log-in")',
          ),
        ]
      : undefined;
  }
  const problems: Problem[] = [];
  const issuer = parseIssuer(v.PSU_OIDC_ISSUER);
  if (issuer instanceof Problem) problems.push(issuer);
  if (v.PSU_OIDC_CLIENT_ID === '')
    problems.push(
      new Problem('PSU_OIDC_CLIENT_ID must be set with PSU_OIDC_ISSUER: the client id the provider gave the bank'),
    );
  const clientAuth = parseClientAuth(v.PSU_OIDC_CLIENT_SECRET, v.PSU_OIDC_CLIENT_KEY_FILE);
  if (clientAuth instanceof Problem) problems.push(clientAuth);
  const scope = v.PSU_OIDC_SCOPE.split(' ').filter((s) => s !== '');
  if (!scope.includes('openid') || !scope.every((s) => LIST_VALUE.test(s)))
    problems.push(
      new Problem(
        `PSU_OIDC_SCOPE must be scope values separated by spaces, openid among them (got '${v.PSU_OIDC_SCOPE}')`,
      ),
    );
  const acrValues = v.PSU_OIDC_ACR_VALUES.split(' ').filter((s) => s !== '');
  if (!acrValues.every((s) => LIST_VALUE.test(s)))
    problems.push(
      new Problem(
        `PSU_OIDC_ACR_VALUES must be acr values separated by spaces, such as urn:bankid:bid;LOA=4 (got '${v.PSU_OIDC_ACR_VALUES}')`,
      ),
    );
  for (const name of ['PSU_OIDC_IDENTITY_CLAIM', 'PSU_OIDC_NAME_CLAIM'] as const) {
    if (v[name] !== '' && !CLAIM_NAME.test(v[name]))
      problems.push(new Problem(`${name} must be a claim name such as nin or nnin_altsub (got '${v[name]}')`));
  }
  if (problems.length > 0) return problems;
  return {
    issuer: issuer as string,
    clientId: v.PSU_OIDC_CLIENT_ID,
    clientAuth: clientAuth as PsuOidcClientAuth,
    scope: scope.join(' '),
    acrValues,
    identityClaim: v.PSU_OIDC_IDENTITY_CLAIM,
    nameClaim: v.PSU_OIDC_NAME_CLAIM === '' ? undefined : v.PSU_OIDC_NAME_CLAIM,
  };
}

/**
 * An https address; http only on this machine's loopback (`npm run idp`, the tests), where no one
 * can read or change what passes. Anywhere else the PSU's identity would cross the network in clear.
 */
function parseIssuer(text: string): string | Problem {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const loopback = url !== undefined && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  const fit =
    url !== undefined &&
    url.search === '' &&
    url.hash === '' &&
    (url.protocol === 'https:' || (url.protocol === 'http:' && loopback));
  // Kept as given: discovery compares it with the provider's issuer exactly, a trailing slash included.
  return fit
    ? text
    : new Problem(
        `PSU_OIDC_ISSUER must be the identity provider's issuer, an https address (http only on 127.0.0.1 or localhost) without query (got '${text}')`,
      );
}

/** Exactly one way to authenticate at the token endpoint: a shared secret, or a private key (private_key_jwt). */
function parseClientAuth(secret: string, keyFile: string): PsuOidcClientAuth | Problem {
  if (secret !== '' && keyFile !== '')
    return new Problem('PSU_OIDC_CLIENT_SECRET and PSU_OIDC_CLIENT_KEY_FILE are both set: give one of them');
  if (secret !== '') return { kind: 'client-secret', secret };
  if (keyFile !== '') return { kind: 'private-key-jwt', keyFile };
  return new Problem(
    'PSU_OIDC_CLIENT_SECRET or PSU_OIDC_CLIENT_KEY_FILE must be set with PSU_OIDC_ISSUER: how the bank authenticates to the provider',
  );
}
