import { acceptedFixes } from '../../domain/accept-fix.js';
import { historyStart, needsScaForHistory } from '../../domain/ais-consent.js';
import { ApiError, type TppMessage } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { includesBooked } from '../../domain/booking-status.js';
import {
  AIS_HISTORY_WITHOUT_SCA_DAYS,
  AIS_TRANSACTIONS_PAGE_DEFAULT,
  AIS_UNATTENDED_READS_PER_DAY,
} from '../../domain/limits.js';
import type { TransactionCursor } from '../../domain/transaction-cursor.js';
import {
  type ReadKind,
  isBeyondUnattendedAllowance,
  unattendedReadDay,
  unattendedReadKey,
} from '../../domain/unattended-reads.js';
import type { AisAccount, AisCardAccount } from '../../store/ais-records.js';
import type { Store } from '../../store/store.js';
import type { Banks } from '../banks.js';
import type { RequestContext } from '../request-context.js';
import type { AisConsents, ConsentInForce } from './ais-consents.js';
import { type TransactionListQuery, cursorOf } from './transaction-query.js';

/** What a read tells account information about itself: the request's facts it needs (RequestContext). */
export type AisRequest = Pick<RequestContext, 'tpp' | 'sca' | 'psuPresent' | 'retry' | 'acceptFix'>;

/** A read the consent allows: the accounts it shares as they are now, the bank's time, the changes in force. */
export interface AisReading extends ConsentInForce {
  request: AisRequest;
  accounts: AisAccount[];
  cards: AisCardAccount[];
  today: string;
  fixes: ReadonlySet<string>;
  /** WARNINGs for x-accept-fix names the bank does not know. */
  warnings: TppMessage[];
}

/**
 * The rules every account-information read passes (docs/ais.md): a consent in force; the account in
 * it (and still the PSU's to share, or still theirs to VIEW for the agreement); history older than 90
 * days only with an SCA at most 90 days old; without the PSU present, at most four reads a day.
 */
/** A transaction listing as AisAccess.openListing opened it. */
export interface TransactionListing<R> {
  reading: AisReading;
  resource: R;
  cursor: TransactionCursor | undefined;
  limit: number;
}

export class AisAccess {
  constructor(
    private readonly store: Store,
    private readonly banks: Banks,
    private readonly consents: AisConsents,
  ) {}

  async open(request: AisRequest): Promise<AisReading> {
    const inForce = await this.consents.inForce(request.tpp, request.sca);
    const { consent, resources } = inForce;
    // What the consent shares, as far as the PSU may still share it: an account sold, deleted, or no
    // longer the PSU's to VIEW for the agreement drops out.
    const now = await this.store.shareableAccounts(
      this.banks.of(request.tpp.id),
      consent.customerId,
      consent.agreementId,
    );
    const chosen = new Set(resources.map((r) => `${r.kind}:${r.id}`));
    const today = osloDate(inForce.now);
    const fixes = acceptedFixes(request.acceptFix, today);
    return {
      ...inForce,
      request,
      accounts: now.accounts.filter((a) => chosen.has(`account:${a.id}`)),
      cards: now.cards.filter((k) => chosen.has(`card:${k.id}`)),
      today,
      fixes: fixes.active,
      warnings: fixes.warnings,
    };
  }

  account(reading: AisReading, accountId: string): AisAccount {
    const account = reading.accounts.find((a) => a.id === accountId);
    if (account === undefined) throw notShared('accountId', 'account', accountId);
    return account;
  }

  card(reading: AisReading, cardAccountId: string): AisCardAccount {
    const card = reading.cards.find((k) => k.id === cardAccountId);
    if (card === undefined) throw notShared('cardAccountId', 'card account', cardAccountId);
    return card;
  }

  /**
   * The opening of a transaction listing, of an account or a card account: the query's cursor, the
   * consent in force, the resource among those shared (`find`), the 90-day rule when booked
   * transactions are asked for, and the read counted.
   */
  async openListing<R extends { id: string }>(
    request: AisRequest,
    query: TransactionListQuery,
    find: (reading: AisReading) => R,
  ): Promise<TransactionListing<R>> {
    const cursor = cursorOf(query);
    const reading = await this.open(request);
    const resource = find(reading);
    if (includesBooked(query.bookingStatus)) await this.requireHistory(reading, query.dateFrom, 'query:dateFrom');
    await this.countRead(reading, 'transactions', resource.id);
    return { reading, resource, cursor, limit: query.limit ?? AIS_TRANSACTIONS_PAGE_DEFAULT };
  }

  /**
   * spec, Authentication 10: transactions booked more than 90 days ago need an SCA at most 90 days
   * old. A read reaching back further is answered 401 with an scaRedirect that renews the consent's
   * SCA (docs/decisions.md, "History beyond 90 days").
   */
  async requireHistory(reading: AisReading, dateFrom: string | undefined, path: string): Promise<void> {
    if (!needsScaForHistory(dateFrom, reading.consent.scaAt, reading.now)) return;
    const start = historyStart(reading.consent.scaAt, reading.now)!;
    throw await this.consents.challenge(reading.request.tpp, reading.request.sca, reading.consent, reading.now, {
      category: 'ERROR',
      code: 'CONSENT_INVALID',
      path,
      text: `${path} ${dateFrom} is before ${start}: transactions older than ${AIS_HISTORY_WITHOUT_SCA_DAYS} days are read only with an SCA at most ${AIS_HISTORY_WITHOUT_SCA_DAYS} days old, and the consent's was on ${osloDate(reading.consent.scaAt)}; the PSU renews it at the scaRedirect, or read from ${start}`,
    });
  }

  /**
   * PSD2 RTS 36(5): without PSU-IP-Address the read counts, per account (or the consent, for a list)
   * and kind of read, per Norwegian day; the fifth of a day is 429 ACCESS_EXCEEDED. A retry of a
   * counted read (same X-Request-ID, same request) is not counted again.
   */
  async countRead(reading: AisReading, kind: ReadKind, resourceId: string): Promise<void> {
    const { request } = reading;
    if (request.psuPresent || request.retry) return;
    const reads = await this.store.countUnattendedRead(
      request.tpp.id,
      unattendedReadKey(kind, resourceId),
      unattendedReadDay(reading.now),
    );
    if (!isBeyondUnattendedAllowance(reads)) return;
    const what =
      kind === 'accounts'
        ? 'the list of accounts of this consent'
        : `${kind === 'account' ? 'the details' : `the ${kind}`} of ${resourceId}`;
    throw new ApiError(
      'ACCESS_EXCEEDED',
      `${what}: read ${AIS_UNATTENDED_READS_PER_DAY} times today (${reading.today}) without the PSU present`,
      [
        {
          code: 'ACCESS_EXCEEDED',
          path: 'header:PSU-IP-Address',
          text: `${what}: read ${AIS_UNATTENDED_READS_PER_DAY} times today (${reading.today}, Norwegian time by the bank's clock) without PSU-IP-Address; PSD2 RTS article 36(5) allows ${AIS_UNATTENDED_READS_PER_DAY} reads a day without the PSU: send PSU-IP-Address when the PSU asks, or read again tomorrow`,
        },
      ],
    );
  }
}

function notShared(param: string, what: string, id: string): ApiError {
  const text = `no ${what} ${id} is among those the PSU shared in this consent`;
  return new ApiError('RESOURCE_UNKNOWN', text, [{ code: 'RESOURCE_UNKNOWN', path: `path:${param}`, text }]);
}
