import type { Json } from '../../domain/json.js';
import { includesBooked } from '../../domain/booking-status.js';
import type { AisCardAccount } from '../../store/ais-records.js';
import type { BankCore } from '../../core/bank-core.js';
import type { AisAccess, AisRequest } from './ais-access.js';
import { type CountedRead, ReadTarget } from './ais-read.js';
import { type ListingPage, type TransactionListQuery, nextPageHref, pageHref, pageOf } from './transaction-query.js';
import {
  cardAccountDetails,
  cardAccountPath,
  cardAccountReference,
  cardBalances,
  cardTransaction,
  selfLinks,
} from './ais-views.js';

/**
 * GET /v1/card-accounts, /{id}, /{id}/balances and /{id}/transactions: the card accounts the PSU
 * shared, the balances given at their creation, and their transactions in booking-date order a page
 * at a time. A card transaction is booked when posted (it has a booking date); none is pending.
 */
export class AisCardAccounts {
  constructor(
    private readonly core: Pick<BankCore, 'aisCardTransactions'>,
    private readonly access: AisAccess,
  ) {}

  list(request: AisRequest, withBalance: boolean): Promise<Json> {
    return this.access.read(request, {
      of: ReadTarget.cards,
      counts: 'accounts',
      withBalance,
      view: ({ resource: cards, fixes, withBalance: counted }) => ({
        cardAccounts: cards.map((card) => cardAccountDetails(card, fixes, counted ? cardBalances(card) : undefined)),
      }),
    });
  }

  read(request: AisRequest, cardAccountId: string, withBalance: boolean): Promise<Json> {
    return this.access.read(request, {
      of: ReadTarget.card(cardAccountId),
      counts: 'account',
      withBalance,
      view: ({ resource: card, fixes, withBalance: counted }) => ({
        cardAccount: cardAccountDetails(card, fixes, counted ? cardBalances(card) : undefined),
      }),
    });
  }

  readBalances(request: AisRequest, cardAccountId: string): Promise<Json> {
    return this.access.read(request, {
      of: ReadTarget.card(cardAccountId),
      counts: 'balances',
      view: ({ resource: card }) => ({
        cardAccount: cardAccountReference(card),
        balances: cardBalances(card),
        _links: selfLinks(`${cardAccountPath(card.id)}/balances`),
      }),
    });
  }

  async transactions(request: AisRequest, cardAccountId: string, query: TransactionListQuery): Promise<Json> {
    const page = pageOf(query);
    return this.access.read(request, {
      of: ReadTarget.card(cardAccountId).listing(query),
      counts: 'transactions',
      withBalance: query.withBalance === true,
      view: (read) => this.#transactionsView(read, query, page),
    });
  }

  async #transactionsView(
    { resource: card, fixes, withBalance }: CountedRead<AisCardAccount>,
    query: TransactionListQuery,
    { cursor, limit }: ListingPage,
  ): Promise<Json> {
    const report: Json = {};
    let next: string | undefined;
    if (includesBooked(query.bookingStatus)) {
      const rows = await this.core.aisCardTransactions(card.id, {
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        after: cursor,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      report.booked = page.map((t) => cardTransaction(t, fixes));
      const last = page.at(-1);
      if (rows.length > limit && last !== undefined)
        next = nextPageHref(cardAccountPath(card.id), query, limit, { bookingDate: last.bookingDate, seq: last.seq });
    }
    if (query.bookingStatus !== 'booked') report.pending = [];
    report._links = {
      self: { href: pageHref(cardAccountPath(card.id), query), verbs: ['GET'] },
      cardAccount: { href: cardAccountPath(card.id), verbs: ['GET'] },
      ...(next === undefined ? {} : { next: { href: next, verbs: ['GET'] } }),
    };
    return {
      cardAccount: cardAccountReference(card),
      cardTransactions: report,
      ...(withBalance ? { balances: cardBalances(card) } : {}),
    };
  }
}
