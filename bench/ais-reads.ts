import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import { signRequest } from '../src/toolkit/request-signer.js';
import { approveSca } from '../src/toolkit/sca-approver.js';
import { type BenchServer, SERVER_BUNDLE, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { type LoadResult, type PreparedRequest, runLoad } from './load.js';
import { type BenchTpp, pool } from './requests.js';
import { sandboxCall } from './sandbox-call.js';
import { seedAccountTransactions, seededBookingDates } from './seed-ledger.js';
import { bySize } from './smoke.js';

/** Transactions on the account whose pages are read, and the page asked for; a second account holds a thousand, to compare. */
export const AIS_TRANSACTIONS = bySize(1_000_000, 1_000);
const SMALL = bySize(1000, 200);
const PAGE = 50;

/** The bench's customer (valid check digits), its account with the transactions and four more for the list. */
const CUSTOMER = '01018510002';
const BBANS = ['96500000004', '96500000012', '96500000020', '96500000039', '96500000047'];

export interface AisFigures {
  accounts: LoadResult;
  transactions: LoadResult;
  /** The same pages of an account with SMALL transactions. */
  transactionsSmall: LoadResult;
}

/**
 * Account information as a TPP reads it (docs/ais.md): signed `GET /v1/accounts` (five accounts) and
 * `GET /v1/accounts/{id}/transactions?bookingStatus=booked&dateFrom=1970-01-01&limit=50&cursor=…` at
 * random positions (the cursor `_links.next` gives) of one account holding AIS_TRANSACTIONS
 * transactions and of one holding SMALL, each in the consent session the PSU gave on the SCA page, with PSU-IP-Address (the
 * PSU present: no daily limit). The data is made through the API on a fresh SQLite database; the
 * server is stopped while the transactions are written into the file, then started again; one page is
 * checked before the loads.
 */
export async function measureAisReads(
  tpp: BenchTpp,
  options: { seconds: number; connections: number; port: number },
): Promise<AisFigures> {
  const dir = mkdtempSync(join(tpp.work, 'ais-'));
  const start = () =>
    startBenchServer(SERVER_BUNDLE, options.port, {
      ...sqliteSandboxEnv(dir, tpp.caFile),
      PUBLIC_URL: `http://127.0.0.1:${options.port}`,
    });
  let server: BenchServer | undefined = await start();
  try {
    const accountIds = await createAccounts(server.url, tpp.credentials);
    const session = await giveConsent(server.url, tpp.credentials, accountIds);
    await server.stop();
    server = undefined;
    const ms = seedAccountTransactions(join(dir, 'psd2.db'), accountIds[0]!, AIS_TRANSACTIONS);
    seedAccountTransactions(join(dir, 'psd2.db'), accountIds[1]!, SMALL);
    process.stderr.write(`ais: ${AIS_TRANSACTIONS} transactions seeded in ${(ms / 1000).toFixed(1)} s\n`);
    server = await start();
    /** A page after a random position of an account holding `count` seeded transactions. */
    const pageOf = (accountId: string, count: number) => {
      const dateOf = seededBookingDates(count);
      return (position: number) =>
        transactionsRequest(
          tpp.credentials,
          session,
          accountId,
          position === 0 ? undefined : `${dateOf(position - 1)}.${position}`,
        );
    };
    const page = pageOf(accountIds[0]!, AIS_TRANSACTIONS);
    const smallPage = pageOf(accountIds[1]!, SMALL);
    await checkPage(server.url, page(AIS_TRANSACTIONS / 2));
    await checkPage(server.url, smallPage(SMALL / 2));

    const load = async (make: (i: number) => PreparedRequest): Promise<LoadResult> => {
      const warmUp = await runLoad(server!.url, pool(1000, make), {
        connections: options.connections,
        seconds: 1,
        expect: 200,
      });
      const size = Math.max(1000, Math.ceil(warmUp.requestsPerSecond * options.seconds * 1.5));
      return runLoad(server!.url, pool(size, make), {
        connections: options.connections,
        seconds: options.seconds,
        expect: 200,
      });
    };
    const accounts = await load(() => signedRead(tpp.credentials, session, '/v1/accounts'));
    const transactions = await load(() => page(Math.floor(Math.random() * (AIS_TRANSACTIONS - PAGE))));
    const transactionsSmall = await load(() => smallPage(Math.floor(Math.random() * (SMALL - PAGE))));
    return { accounts, transactions, transactionsSmall };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Session {
  psuId: string;
  tppSessionId: string;
}

async function createAccounts(url: string, credentials: CertificateAndKey): Promise<string[]> {
  await sandboxCall(url, credentials, 'POST', '/v1/sandbox/customers', 201, {
    customerNumber: CUSTOMER,
    name: 'Bench Kunde',
    type: 'private',
  });
  const ids: string[] = [];
  for (const bban of BBANS) {
    const account = await sandboxCall<{ id: string }>(url, credentials, 'POST', '/v1/sandbox/accounts', 201, {
      customerNumber: CUSTOMER,
      accountName: 'Brukskonto',
      bban,
      currency: 'NOK',
      product: 'Brukskonto',
      cashAccountType: 'CACC',
      creditLine: 0,
      balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 10000, currency: 'NOK' } }],
    });
    ids.push(account.id);
  }
  return ids;
}

/**
 * The PSU gives the consent on the SCA page, sharing the bench's accounts. The toolkit's approver
 * fills the pages in as a browser does, keeping every cookie the pages set: the SCA step is bound to
 * its browser by a cookie of its own beside the CSRF secret's.
 */
async function giveConsent(url: string, credentials: CertificateAndKey, accountIds: string[]): Promise<Session> {
  const asked = await sandboxCall<{ _links: { scaRedirect: { href: string } } }>(
    url,
    credentials,
    'POST',
    '/v1/bank-offered-consents',
    201,
    undefined,
    { 'TPP-Redirect-URI': 'https://tpp.example/cb', 'TPP-Session-ID': 'bench-session' },
  );
  const outcome = await approveSca({
    link: asked._links.scaRedirect.href,
    server: url,
    customerNumber: CUSTOMER,
    code: '123456',
    accounts: accountIds,
  });
  if (outcome.psuId === undefined || outcome.tppSessionId === undefined)
    throw new Error(`the consent page did not send the PSU back: ${JSON.stringify(outcome)}`);
  return { psuId: outcome.psuId, tppSessionId: outcome.tppSessionId };
}

function signedRead(credentials: CertificateAndKey, session: Session, path: string): PreparedRequest {
  const headers = { 'PSU-ID': session.psuId, 'TPP-Session-ID': session.tppSessionId, 'PSU-IP-Address': '192.0.2.10' };
  return { method: 'GET', path, headers: signRequest({ method: 'GET', url: path, credentials, headers }) };
}

function transactionsRequest(
  credentials: CertificateAndKey,
  session: Session,
  accountId: string,
  cursor: string | undefined,
): PreparedRequest {
  const query = `bookingStatus=booked&dateFrom=1970-01-01&limit=${PAGE}${cursor === undefined ? '' : `&cursor=${cursor}`}`;
  return signedRead(credentials, session, `/v1/accounts/${encodeURIComponent(accountId)}/transactions?${query}`);
}

/** A page from the middle: 200, PAGE transactions, the ones after the cursor in order (by their remittance, `Faktura <seq>`). */
async function checkPage(url: string, request: PreparedRequest): Promise<void> {
  const answer = await fetch(`${url}${request.path}`, { headers: request.headers });
  const body = (await answer.json()) as {
    transactions?: { booked?: { remittanceInformationUnstructured: string }[]; _links?: { next?: unknown } };
  };
  const got = body.transactions?.booked?.map((t) => t.remittanceInformationUnstructured) ?? [];
  const from = Number(/\.(\d+)$/.exec(decodeURIComponent(request.path))?.[1] ?? 0);
  const expected = Array.from({ length: PAGE }, (_, i) => `Faktura ${from + i + 1}`);
  if (
    answer.status !== 200 ||
    JSON.stringify(got) !== JSON.stringify(expected) ||
    body.transactions?._links?.next === undefined
  ) {
    throw new Error(
      `transactions page after ${from}: ${answer.status}, ${got.slice(0, 3).join(', ')}…; expected ${PAGE} from Faktura ${from + 1} and a next link`,
    );
  }
}

/** The table's rows of account information (bench/run.ts). */
export function aisRows(
  figures: AisFigures[],
  fmt: (values: number[], digits?: number) => string,
): [string, string, string][] {
  const rps = (pick: (f: AisFigures) => LoadResult) => figures.map((f) => pick(f).requestsPerSecond);
  const latency = (pick: (f: AisFigures) => LoadResult) =>
    `p50 ${fmt(figures.map((f) => pick(f).p50Ms))} / p99 ${fmt(figures.map((f) => pick(f).p99Ms))} ms at full load`;
  return [
    [
      'Account information: GET /v1/accounts (5 accounts, consent session), req/s',
      fmt(rps((f) => f.accounts)),
      latency((f) => f.accounts),
    ],
    [
      `Account information: a transactions page of ${PAGE} at random positions of ${AIS_TRANSACTIONS.toLocaleString('en')} (keyset), req/s`,
      fmt(rps((f) => f.transactions)),
      latency((f) => f.transactions),
    ],
    [
      `Account information: the same at ${SMALL.toLocaleString('en')} transactions, req/s`,
      fmt(rps((f) => f.transactionsSmall)),
      `${latency((f) => f.transactionsSmall)}; to compare with the row above: a page is one index range at any depth`,
    ],
  ];
}
