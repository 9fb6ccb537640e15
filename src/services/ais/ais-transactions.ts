import type { Json } from '../../domain/json.js';
import { batchesEntries } from '../../domain/ais-fixes.js';
import { ApiError } from '../../domain/api-error.js';
import { includesBooked, includesPending } from '../../domain/booking-status.js';
import { BANK_TRANSACTION_CODES } from '../../domain/payment-execution.js';
import type { TransactionCursor } from '../../domain/transaction-cursor.js';
import type { AisAccount, AisTransaction } from '../../store/ais-records.js';
import type { BankCore } from '../../core/bank-core.js';
import type { AisAccess, AisRequest } from './ais-access.js';
import type { AisPending } from './ais-pending.js';
import { type CountedRead, ReadTarget } from './ais-read.js';
import { type ListingPage, type TransactionListQuery, nextPageHref, pageHref, pageOf } from './transaction-query.js';
import {
  accountPath,
  accountReference,
  batchTransaction,
  bookedTransaction,
  isDebitOf,
  pendingTransaction,
} from './ais-views.js';

/** One entry of a page and the position of its last booked transaction (a batch has several). */
interface PageEntry {
  view: Json;
  last: TransactionCursor;
}

/**
 * GET /v1/accounts/{id}/transactions and /transactions/{transactionId}: booked transactions (posted
 * as test data, or booked by the batch run) in booking-date order a page at a time (keyset: the
 * next page is `_links.next`), and the pending ones (payments authorised, not yet executed) on the
 * first page.
 */
export class AisTransactions {
  constructor(
    private readonly core: Pick<BankCore, 'aisTransactions' | 'findTransaction'>,
    private readonly access: AisAccess,
    private readonly pending: AisPending,
  ) {}

  async list(request: AisRequest, accountId: string, query: TransactionListQuery): Promise<Json> {
    const page = pageOf(query);
    return this.access.read(request, {
      of: ReadTarget.account(accountId).listing(query),
      counts: 'transactions',
      withBalance: query.withBalance === true,
      view: (read) => this.#listView(read, query, page),
    });
  }

  read(request: AisRequest, accountId: string, transactionId: string): Promise<Json> {
    return this.access.read(request, {
      // A transaction not on the account, or booked before what the consent's SCA allows, is refused uncounted.
      of: ReadTarget.account(accountId).checked(async (account, rules) => {
        const transaction = await this.core.findTransaction(account.id, transactionId);
        if (transaction === undefined) {
          const text = `no booked transaction ${transactionId} is on account ${accountId}`;
          throw new ApiError('RESOURCE_UNKNOWN', text, [
            { code: 'RESOURCE_UNKNOWN', path: 'path:transactionId', text },
          ]);
        }
        await rules.requireHistory(transaction.bookingDate, 'path:transactionId');
        return { account, transaction };
      }),
      counts: 'transactions',
      view: ({ resource: { account, transaction }, fixes }) => ({
        transactionsDetails: bookedTransaction(transaction, account, fixes),
      }),
    });
  }

  async #listView(
    { resource: account, fixes, today, bank, withBalance }: CountedRead<AisAccount>,
    query: TransactionListQuery,
    { cursor, limit }: ListingPage,
  ): Promise<Json> {
    const transactions: Json = {};
    let next: TransactionCursor | undefined;
    if (includesBooked(query.bookingStatus)) {
      const page = await this.#bookedPage(account, fixes, {
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        after: cursor,
        limit,
      });
      transactions.booked = page.entries.map((e) => e.view);
      next = page.more ? page.entries.at(-1)!.last : undefined;
    }
    // Pending payments have no booking date and no position: the first page carries them all.
    if (includesPending(query.bookingStatus)) {
      transactions.pending =
        cursor !== undefined
          ? []
          : (await this.pending.of(bank, account, today, limit)).entries.map((e) =>
              pendingTransaction(e, account, fixes),
            );
    }
    // bookingStatus all adds information entries (standing orders) to both: this interface has none.
    if (query.bookingStatus === 'all') transactions.information = [];
    // `self` is this page, where Berlin Group keeps a report's links (docs/decisions/0246).
    transactions._links = {
      self: { href: pageHref(accountPath(account.id), query), verbs: ['GET'] },
      account: { href: accountPath(account.id), verbs: ['GET'] },
      ...(next === undefined
        ? {}
        : { next: { href: nextPageHref(accountPath(account.id), query, limit, next), verbs: ['GET'] } }),
    };
    return {
      account: accountReference(account),
      transactions,
      ...(withBalance ? { balances: await this.pending.balances(bank, account, today) } : {}),
    };
  }

  /**
   * `limit` entries from the position after `after`, and whether more follow. With batch-transactions
   * in force the entries of one bulk payment on its debtor account (booked together, so adjacent in
   * this order) are one batch entry; a batch is read whole even across the store's pages.
   */
  async #bookedPage(
    account: AisAccount,
    fixes: ReadonlySet<string>,
    query: { dateFrom: string; dateTo: string | undefined; after: TransactionCursor | undefined; limit: number },
  ): Promise<{ entries: PageEntry[]; more: boolean }> {
    const batching = batchesEntries(fixes);
    // A dateFrom beyond what the consent's SCA allows was challenged before the read counted (ReadTarget.listing).
    const dateFrom = query.dateFrom;
    const entries: PageEntry[] = [];
    let open: AisTransaction[] | undefined;
    let after = query.after;
    const chunk = query.limit + 1;
    for (;;) {
      const rows = await this.core.aisTransactions(account.id, {
        dateFrom,
        dateTo: query.dateTo,
        after,
        limit: chunk,
      });
      for (const row of rows) {
        const member =
          batching &&
          row.bulk &&
          row.paymentId !== undefined &&
          isDebitOf(row, account) &&
          row.bankTransactionCode !== BANK_TRANSACTION_CODES.fee;
        if (open !== undefined && member && row.paymentId === open[0]!.paymentId) {
          open.push(row);
          continue;
        }
        if (open !== undefined) {
          entries.push(batchEntry(open, fixes));
          open = undefined;
        }
        if (entries.length === query.limit) return { entries, more: true };
        if (member) open = [row];
        else
          entries.push({
            view: bookedTransaction(row, account, fixes),
            last: { bookingDate: row.bookingDate, seq: row.seq },
          });
      }
      if (rows.length < chunk) break;
      const last = rows.at(-1)!;
      after = { bookingDate: last.bookingDate, seq: last.seq };
    }
    if (open !== undefined) entries.push(batchEntry(open, fixes));
    return { entries, more: false };
  }
}

function batchEntry(members: AisTransaction[], fixes: ReadonlySet<string>): PageEntry {
  const last = members.at(-1)!;
  return {
    view: batchTransaction(members, fixes),
    last: { bookingDate: last.bookingDate, seq: last.seq },
  };
}
