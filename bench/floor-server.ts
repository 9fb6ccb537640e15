import { X509Certificate, createHash, verify, type KeyObject } from 'node:crypto';
import Fastify, { type FastifyRequest } from 'fastify';
import { newPaymentId } from '../src/domain/payments/payment.js';
import type { NewPayment } from '../src/domain/payments/payment.js';
import { timeOrderedId } from '../src/domain/time-ordered-id.js';
import { hashToken, newToken } from '../src/services/sca/sca-links.js';
import { openStore } from '../src/store/open-store.js';
import { limitHeapGrowth } from '../src/heap-growth.js';
import { json } from '../src/store/postgres/postgres-hot-path.js';
import { BENCH_TPP_ORGANISATION } from './requests.js';

/**
 * The floor under a create and a status read on this machine: the ceiling's bare Fastify route plus
 * only what no implementation of the specification can leave out, done with the server's own store.
 * - A create: the RSA signature verified over the signed headers; then, as the server's store does
 *   them, the X-Request-ID binding and the payment with its transfer, its SCA authorisation and its
 *   stored answer, and the wait for the flush that makes them durable.
 * - A bulk create: the same, with a transfer for each entry (bench/README.md, "Bulk").
 * - A status read: the signature verified, the binding, the payment read, the flush, and an answer
 *   as long as the server's.
 * - A page of a sandbox account's transactions (bench/listing.ts): the signature verified, the
 *   binding, the account's look-up in the bench TPP's bank, the page read, the flush, the rows as
 *   JSON.
 * None of the server's own reading of the request (headers, certificate policy, validation, the
 * specification's rules), nothing of its error model, logs or metrics. The gap between this and
 * the server is what the server adds; the gap between this and the ceiling is what durability and
 * signatures cost (bench/history.md, "Where the time goes").
 *
 * `node dist/bench/floor-server.js <database-url>`: `sqlite:<file>` or `postgres://…`.
 */
const store = await openStore(locationOf(process.argv[2] ?? 'sqlite::memory:'));
await store.migrate();
const keys = new Map<string, KeyObject>();
/** The payment the status reads read: the last one created (the bench creates before it reads). */
let readPaymentId = 'enc!!none';

/** The Berlin Group signature's own check: the signing string of the signed headers, verified with the certificate's key. */
function verifySignature(headers: Record<string, string | string[] | undefined>): void {
  const certificate = headers['tpp-signature-certificate'] as string;
  let key = keys.get(certificate);
  if (key === undefined) {
    key = new X509Certificate(Buffer.from(certificate, 'base64')).publicKey;
    keys.set(certificate, key);
  }
  const signature = /headers="([^"]*)",signature="([^"]*)"/.exec(headers['signature'] as string)!;
  const signingString = signature[1]!
    .split(' ')
    .map((name) => `${name}: ${headers[name] as string}`)
    .join('\n');
  if (!verify('sha256', Buffer.from(signingString), key, Buffer.from(signature[2]!, 'base64')))
    throw new Error('the signature does not verify');
}

const answer = JSON.stringify({ paymentId: 'enc!!x', transactionStatus: 'RCVD', padding: 'x'.repeat(540) });
/**
 * A status answer as long as the server's to the bench's payment (482 bytes: its id, its status and
 * the three links the platform's answer carries), as the create's answer above is as long as the
 * server's: writing it is part of what no implementation can leave out.
 */
const STATUS_ANSWER_BYTES = 482;
const statusAnswer = JSON.stringify({
  transactionStatus: 'ACTC',
  padding: 'x'.repeat(STATUS_ANSWER_BYTES - '{"transactionStatus":"ACTC","padding":""}'.length),
});
const app = Fastify({ logger: false });
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
  (request as unknown as { rawBody: Buffer }).rawBody = body as Buffer;
  done(null, JSON.parse((body as Buffer).toString('utf8')) as unknown);
});
app.get('/health', async () => 'ok');
app.post('/v1/*', async (request, reply) => {
  verifySignature(request.headers);
  const raw = (request as unknown as { rawBody: Buffer }).rawBody;
  const bodySha256 = createHash('sha256').update(raw).digest('hex');
  const requestId = request.headers['x-request-id'] as string;
  const now = new Date();
  await store.bindRequest(
    {
      tppId: 'T',
      requestId,
      method: 'POST',
      target: request.url,
      bodySha256,
      scope: 'strict',
      expiresAt: new Date(now.getTime() + 300_000),
    },
    now,
  );
  // By PSU, as the server keys them: creates for one PSU are serialised (the logical-duplicate check).
  const payment = paymentOf(
    request.body,
    createHash('sha256')
      .update(request.headers['x-psu-identity'] as string)
      .digest('hex'),
    now,
  );
  const result = await store.createPayment(
    payment,
    { tppId: 'T', requestId, operation: `POST ${request.url}`, bodySha256, responseStatus: 201, responseBody: answer },
    {
      duplicatesSince: new Date(now.getTime() - 86_400_000),
      authorisation: {
        id: timeOrderedId(),
        // The SCA link's token as the server makes it, from the pooled random bytes: a randomBytes call a create cost the floor more than its entropy.
        tokenHash: hashToken(newToken()),
        kind: 'payment',
        objectId: payment.id,
        tppId: 'T',
        tppName: 'Bench TPP',
        psuId: undefined,
        psuNationalIdHash: 'h',
        psuCorporateId: undefined,
        psuContext: 'PRIVATE',
        authMethod: undefined,
        redirectPreferred: true,
        tppRedirectUri: 'https://tpp.example/cb',
        tppSessionId: 's',
        expiresAt: new Date(now.getTime() + 900_000),
        createdAt: now,
      },
    },
  );
  if (result.outcome !== 'created') throw new Error(`the create was ${result.outcome}`);
  readPaymentId = payment.id;
  await store.durable();
  return reply.code(201).type('application/json').send(answer);
});
/** What every signed read does first: the signature verified, and its X-Request-ID bound. */
async function admitRead(request: FastifyRequest): Promise<void> {
  verifySignature(request.headers);
  const now = new Date();
  await store.bindRequest(
    {
      tppId: 'T',
      requestId: request.headers['x-request-id'] as string,
      method: 'GET',
      target: request.url,
      bodySha256: '',
      scope: 'strict',
      expiresAt: new Date(now.getTime() + 300_000),
    },
    now,
  );
}

app.get('/v1/*', async (request, reply) => {
  await admitRead(request);
  if ((await store.findPayment('T', readPaymentId, '')) === undefined)
    throw new Error('no payment to read: create one first');
  await store.durable();
  return reply.type('application/json').send(statusAnswer);
});
app.get('/v1/sandbox/accounts/:accountId/transactions', async (request, reply) => {
  await admitRead(request);
  const account = await store.findSandboxAccount(
    BENCH_TPP_ORGANISATION,
    (request.params as { accountId: string }).accountId,
  );
  if (account === undefined) throw new Error("no such account in the bench TPP's bank");
  const { offset, limit } = request.query as { offset: string; limit: string };
  const page = await store.listSandboxTransactions(account.id, {
    fromDate: undefined,
    toDate: undefined,
    offset: Number(offset),
    limit: Number(limit),
  });
  await store.durable();
  return reply.type('application/json').send(json(page));
});
await app.listen({ port: Number(process.env.PORT ?? 8190), host: '127.0.0.1' });
// The server's heap settings, set as the server sets them once ready.
limitHeapGrowth();
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});

/**
 * A payment as the server stores a create: a cross-border create's one transfer, or a bulk's transfer
 * for each entry of `payments`; each duplicate key made from its entry (a bulk's entries are looked
 * up and stored one by one, as the server does, but none is read or checked).
 */
function paymentOf(body: unknown, psu: string, now: Date): NewPayment {
  const amount = { minor: 15_000_000n, currency: 'NOK' as const };
  const entries = (body as { payments?: unknown[] }).payments;
  const transferOf = (entry: unknown, path: string) => ({
    amount,
    creditorName: 'Svenska Leverantör AB',
    creditorAccount: 'SE4550000000058398257466',
    duplicateKey: createHash('sha256').update(JSON.stringify(entry)).digest('hex'),
    path,
  });
  return {
    id: newPaymentId(),
    tppId: 'T',
    service: entries === undefined ? 'payments' : 'bulk-payments',
    product: entries === undefined ? 'norwegian-cross-border-credit-transfers' : 'norwegian-domestic-credit-transfers',
    status: 'RCVD',
    psu: { psuId: undefined, nationalIdHash: psu, corporateId: undefined, context: 'PRIVATE', key: `nid:${psu}` },
    debtor: { bban: '15061012343', iban: undefined, currency: 'NOK' },
    requestedExecutionDate: undefined,
    transfers:
      entries === undefined
        ? [transferOf(body, '$')]
        : entries.map((entry, i) => transferOf(entry, `$.payments[${i}]`)),
    fees: { total: { minor: 10_000n, currency: 'NOK' as const }, charged: true, conversion: undefined },
    warnings: [],
    body,
    acceptFixes: [],
    tppRedirectUri: 'https://tpp.example/cb',
    tppSessionId: 's',
    createdAt: now,
  };
}

function locationOf(url: string): { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string } {
  return url.startsWith('sqlite:') ? { kind: 'sqlite', path: url.slice('sqlite:'.length) } : { kind: 'postgres', url };
}
