import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import {
  CONSOLE_LINK_TTL_MS,
  CONSOLE_LINKS_PER_TPP,
  CONSOLE_TOKEN_MAX_LENGTH,
  SANDBOX_PUBLIC_KEY_MAX_LENGTH,
} from '../../domain/limits.js';
import { type BankKeys, LINK_USED } from '../../services/bank-keys.js';
import type { ConsoleAccess } from '../console-pages/console-access.js';
import { readPublicKeyInput } from '../../security/public-key-input.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { registerLinkRoute } from './sandbox-link-route.js';
import { SANDBOX_TAGS } from './sandbox-route-parts.js';

const bindingSchema = {
  type: 'object',
  required: ['organizationIdentifier', 'keySha256'],
  properties: {
    organizationIdentifier: {
      type: 'string',
      description: 'The TPP whose bank the key opens: the organizationIdentifier to ask a certificate over the key for',
    },
    keySha256: { type: 'string', description: 'SHA-256 (hex) of the bound key’s SubjectPublicKeyInfo (DER)' },
  },
} as const;

/**
 * `tpp docs` (issue 41 §2): a one-time link that lets /docs sign as the TPP the developer already
 * is. The signed POST makes the link, as POST /v1/sandbox/console-links does; the page, opened from
 * it, makes a key in the browser and binds it with the unsigned POST .../bind, whose only credential
 * is the link. Then the page asks the sandbox for a certificate over its key, and /docs, `tpp` and
 * the console show one bank.
 */
export function registerSandboxDocsLinkRoutes(
  app: FastifyInstance,
  access: ConsoleAccess,
  keys: BankKeys,
  publicUrl: string,
): void {
  registerLinkRoute(app, access, {
    url: '/v1/sandbox/docs-links',
    summary: 'Get a link that makes /docs sign as this TPP, in its sandbox bank',
    description:
      "Takes no body, so Digest is optional here (checked when sent). The link is absolute, at PUBLIC_URL/docs/, and binds one key, made in the browser that opens it, to this TPP's sandbox bank, as POST /v1/sandbox/keys binds keys; `tpp docs` asks for it. Unbinding that key (DELETE /v1/sandbox/keys/{keySha256}) ends it.",
    href: {
      description: `Open it in a browser within ${CONSOLE_LINK_TTL_MS / 60_000} minutes: /docs makes a key in the browser and binds it to this TPP's sandbox bank, once`,
      example: 'http://127.0.0.1:8080/docs/#bind=eyJ0Ijoi…',
    },
    expires: 'The link binds nothing after this instant',
    // In the fragment, which no browser sends: no log holds a token that binds a key.
    address: (token) => `${publicUrl}/docs/#bind=${encodeURIComponent(token)}`,
  });

  app.post<{ Body: { token: string; publicKey: string } }>(
    '/v1/sandbox/docs-links/bind',
    {
      // The link is the credential: the browser that opens it has no certificate yet.
      config: { api: { auth: null } },
      schema: {
        summary:
          'Bind a key made in the browser to the sandbox bank a /docs link names (unsigned; the link is its credential)',
        description: `What /docs does when opened from a link of POST /v1/sandbox/docs-links: once per link, within ${CONSOLE_LINK_TTL_MS / 60_000} minutes, while the key that asked for the link is bound. 201 when bound now, 200 when it was bound already.`,
        tags: SANDBOX_TAGS,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['token', 'publicKey'],
          properties: {
            token: {
              type: 'string',
              minLength: 1,
              maxLength: CONSOLE_TOKEN_MAX_LENGTH,
              description: 'What follows `#bind=` in the link',
            },
            publicKey: {
              type: 'string',
              minLength: 1,
              maxLength: SANDBOX_PUBLIC_KEY_MAX_LENGTH,
              description: 'The RSA public key the browser made (SubjectPublicKeyInfo, PEM)',
            },
          },
        },
        response: { 200: bindingSchema, 201: bindingSchema, ...errorResponses(403, 415, 429) },
      },
    },
    async (request, reply) => {
      // The key is read first: a key refused leaves the link unopened, for the page to try again.
      const key = readPublicKeyInput(request.body.publicKey, '$.publicKey');
      const entry = access.enter(request.body.token);
      if (entry.outcome !== 'valid') throw refusal(entry.outcome);
      const bound = await keys.bindByLink(entry.link, key);
      reply.header('Cache-Control', 'no-store');
      return reply
        .code(bound.created ? 201 : 200)
        .send({ organizationIdentifier: bound.tppId, keySha256: bound.keySha256 });
    },
  );
}

/** Why a link binds nothing, before the database is asked. */
function refusal(outcome: 'invalid' | 'used' | 'expired' | 'busy' | 'too-many'): ApiError {
  const problem = (code: 'FORMAT_ERROR' | 'FORBIDDEN' | 'ACCESS_EXCEEDED', text: string) =>
    ApiError.of([{ code, path: '$.token', text }]);
  switch (outcome) {
    case 'invalid':
      return problem('FORMAT_ERROR', '$.token is not a link this sandbox made; ask for one with `tpp docs`');
    case 'used':
      return problem('FORBIDDEN', LINK_USED);
    case 'expired':
      return problem(
        'FORBIDDEN',
        `$.token expired: a link binds within ${CONSOLE_LINK_TTL_MS / 60_000} minutes; ask for another with \`tpp docs\``,
      );
    case 'too-many':
      return problem(
        'ACCESS_EXCEEDED',
        `$.token: this TPP's links were opened ${CONSOLE_LINKS_PER_TPP} times within ${CONSOLE_LINK_TTL_MS / 60_000} minutes, the most this sandbox takes; open one a little later`,
      );
    case 'busy':
      return problem(
        'ACCESS_EXCEEDED',
        '$.token: this sandbox takes no more links for a few minutes; open one a little later',
      );
  }
}
