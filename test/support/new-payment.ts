import { createHash, randomUUID } from 'node:crypto';
import { duplicateKey, newPaymentId, type NewPayment } from '../../src/domain/payments/payment.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/database.js';
import { authorisationRow, paymentRow, tppRequestRow, transferRows } from '../../src/store/payment-rows.js';
import type { NewAuthorisation } from '../../src/store/sca-records.js';
import type { TppRequestRecord } from '../../src/store/store.js';

/** A payment as the service hands it to the store, for store tests. */
export function newPayment(
  overrides: Partial<NewPayment> & { amountMinor?: bigint; psuKey?: string } = {},
): NewPayment {
  const amount = { minor: overrides.amountMinor ?? 1_500_000n, currency: 'NOK' as const };
  const debtor = { bban: '12345678903', iban: undefined, currency: 'NOK' };
  const { amountMinor: _a, psuKey, ...rest } = overrides;
  return {
    id: newPaymentId(),
    tppId: 'PSDNO-FSA-111111111',
    service: 'payments',
    product: 'norwegian-cross-border-credit-transfers',
    status: 'RCVD',
    psu: {
      psuId: randomUUID(),
      nationalIdHash: undefined,
      corporateId: undefined,
      context: 'PRIVATE',
      key: psuKey ?? 'psu:one',
    },
    debtor,
    requestedExecutionDate: undefined,
    transfers: [
      {
        amount,
        creditorName: 'Creditor AS',
        creditorAccount: 'SE4550000000058398257466',
        duplicateKey: duplicateKey({
          debtor: '12345678903',
          creditor: 'SE4550000000058398257466',
          amount,
          executionDate: undefined,
          remittance: 'x',
        }),
        path: '$',
      },
    ],
    fees: { total: { minor: 10_000n, currency: 'NOK' }, charged: true, conversion: undefined },
    warnings: [],
    body: { instructedAmount: { amount: '15000.00', currency: 'NOK' } },
    acceptFixes: ['amount-as-string'],
    tppRedirectUri: 'https://tpp.example/cb',
    tppSessionId: 'session-1',
    createdAt: new Date(),
    ...rest,
  };
}

export function requestFor(payment: NewPayment, requestId: string = randomUUID()): TppRequestRecord {
  return {
    tppId: payment.tppId,
    requestId,
    operation: `POST /v1/${payment.service}/${payment.product}`,
    bodySha256: 'a'.repeat(64),
    responseStatus: 201,
    responseBody: JSON.stringify({ paymentId: payment.id }),
  };
}

/** A duplicate key as the domain makes one (a SHA-256 in hex), distinct for each label. */
export function duplicateKeyOf(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/** The transfers' columns each migration added since 012, which a payment stored before it lacks. */
const TRANSFER_COLUMNS_SINCE = {
  '012': ['duplicate_hash', 'duplicate_scope', 'duplicate_day'],
  '013': ['duplicate_scope', 'duplicate_day'],
  '030': [],
} as const;
type MigrationAddingColumns = keyof typeof TRANSFER_COLUMNS_SINCE;

/**
 * A payment's rows as the versions before `migration` wrote them (transfers without the columns it
 * and the later ones added), for tests of a migration over rows stored earlier: today's store writes
 * the columns of every migration.
 */
export async function insertPaymentAsBefore(
  migration: MigrationAddingColumns,
  db: Kysely<Database>,
  payment: NewPayment,
  authorisation?: NewAuthorisation,
): Promise<void> {
  const createdAt = payment.createdAt.toISOString();
  // Without response_headers (migration 026), which no version before it wrote.
  const { response_headers: _headers, ...request } = tppRequestRow(requestFor(payment), payment.id, createdAt);
  await db.insertInto('tpp_requests').values(request).execute();
  await db.insertInto('payments').values(paymentRow(payment, undefined)).execute();
  if (authorisation !== undefined)
    await db.insertInto('authorisations').values(authorisationRow(authorisation)).execute();
  await db
    .insertInto('transfers')
    .values(transferRows(payment).map((row) => transferRowBefore(migration, row)))
    .execute();
}

/** A transfer's row (transferRows) without the columns `migration` and the later ones added. */
export function transferRowBefore<Row extends object, M extends MigrationAddingColumns>(
  migration: M,
  row: Row,
): Omit<Row, (typeof TRANSFER_COLUMNS_SINCE)[M][number]> {
  const absent = new Set<string>(TRANSFER_COLUMNS_SINCE[migration]);
  return Object.fromEntries(Object.entries(row).filter(([column]) => !absent.has(column))) as Omit<
    Row,
    (typeof TRANSFER_COLUMNS_SINCE)[M][number]
  >;
}
