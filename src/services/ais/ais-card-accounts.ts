import { type Json, withWarnings } from '../../domain/json.js';
import { includesBooked } from '../../domain/booking-status.js';
import type { Store } from '../../store/store.js';
import type { AisAccess, AisRequest } from './ais-access.js';
import { type TransactionListQuery, nextPageHref } from './transaction-query.js';
import {
  cardAccountDetails,
  cardAccountPath,
  cardAccountReference,
  cardBalances,
  cardTransaction,
} from './ais-views.js';

/**
 * GET /v1/card-accounts, /{id}, /{id}/balances and /{id}/transactions: the card accounts the PSU
 * shared, the balances given at their creation, and their transactions in booking-date order a page
 * at a time. A card transaction is booked when posted (it has a booking date); none is pending.
 */
export class AisCardAccounts {
  constructor(
    private readonly store: Store,
    private readonly access: AisAccess,
  ) {}

  async list(request: AisRequest, withBalance: boolean): Promise<Json> {
    const reading = await this.access.open(request);
    await this.access.countRead(reading, 'accounts', `cards:${reading.consent.id}`);
    return withWarnings(
      {
        cardAccounts: reading.cards.map((card) =>
          cardAccountDetails(card, reading.fixes, withBalance ? cardBalances(card) : undefined),
        ),
      },
      reading.warnings,
    );
  }

  async read(request: AisRequest, cardAccountId: string, withBalance: boolean): Promise<Json> {
    const reading = await this.access.open(request);
    const card = this.access.card(reading, cardAccountId);
    await this.access.countRead(reading, 'account', card.id);
    return withWarnings(
      { cardAccount: cardAccountDetails(card, reading.fixes, withBalance ? cardBalances(card) : undefined) },
      reading.warnings,
    );
  }

  async readBalances(request: AisRequest, cardAccountId: string): Promise<Json> {
    const reading = await this.access.open(request);
    const card = this.access.card(reading, cardAccountId);
    await this.access.countRead(reading, 'balances', card.id);
    return withWarnings({ cardAccount: cardAccountReference(card), balances: cardBalances(card) }, reading.warnings);
  }

  async transactions(request: AisRequest, cardAccountId: string, query: TransactionListQuery): Promise<Json> {
    const {
      reading,
      resource: card,
      cursor,
      limit,
    } = await this.access.openListing(request, query, (r) => this.access.card(r, cardAccountId));
    const report: Json = {};
    let next: string | undefined;
    if (includesBooked(query.bookingStatus)) {
      const rows = await this.store.aisCardTransactions(card.id, {
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        after: cursor,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      report.booked = page.map((t) => cardTransaction(t, reading.fixes));
      const last = page.at(-1);
      if (rows.length > limit && last !== undefined)
        next = nextPageHref(cardAccountPath(card.id), query, limit, { bookingDate: last.bookingDate, seq: last.seq });
    }
    if (query.bookingStatus !== 'booked') report.pending = [];
    report._links = {
      cardAccount: { href: cardAccountPath(card.id), verbs: ['GET'] },
      ...(next === undefined ? {} : { next: { href: next, verbs: ['GET'] } }),
    };
    return withWarnings(
      {
        cardAccount: cardAccountReference(card),
        cardTransactions: report,
        ...(query.withBalance === true ? { balances: cardBalances(card) } : {}),
      },
      reading.warnings,
    );
  }
}
