import { ApiError } from '../../domain/api-error.js';
import { includesBooked } from '../../domain/booking-status.js';
import type { Json } from '../../domain/json.js';
import type { ReadKind } from '../../domain/unattended-reads.js';
import type { AisAccount, AisCardAccount } from '../../store/ais-records.js';
import type { TransactionListQuery } from './transaction-query.js';

/**
 * One account-information read as it declares itself to AisAccess.read, the one way a read reaches
 * what a consent shares: the entry checks the consent, finds `of` among what it shares, counts the read
 * as `counts` under that resource, and only then calls `view`, whose answer gets the WARNINGs of
 * x-accept-fix. A read that is not counted never sees an account.
 */
export interface AisRead<R> {
  /** What the read reads among what the consent shares; a resource not shared is a 404, not counted. */
  of: ReadTarget<R>;
  /** The kind of read it counts as without the PSU present, per resource and Norwegian day (RTS 36(5)). */
  counts: ReadKind;
  /**
   * The answer carries the balances of what it reads (withBalance): each account or card account it
   * reaches counts a balances read too, and the read is refused whole when one is used up.
   */
  withBalance?: boolean;
  /** The answer, given what was read once the read is counted. */
  view: (read: CountedRead<R>) => Json | Promise<Json>;
}

/** What a read's view is given, after the read was counted. */
export interface CountedRead<R> {
  resource: R;
  /** The x-accept-fix changes in force for this read. */
  fixes: ReadonlySet<string>;
  /** The Norwegian date by the bank's clock. */
  today: string;
  /** The bank the TPP reads: its own sandbox bank, or production's. */
  bank: string;
  /** The read declared withBalance and its balances were counted: only then does its answer carry them. */
  withBalance: boolean;
}

/** The rules a read may have to pass before it counts, bound to the consent of the read. */
export interface ReadRules {
  /**
   * spec, Authentication 10: transactions booked more than 90 days before now need an SCA at most 90
   * days old; otherwise a 401 whose scaRedirect renews the consent's SCA.
   */
  requireHistory(dateFrom: string | undefined, path: string): Promise<void>;
}

/** What the consent of a read shares, as the entry found it; ReadTarget picks from it. */
export interface ConsentShares {
  consentId: string;
  accounts: readonly AisAccount[];
  cards: readonly AisCardAccount[];
  rules: ReadRules;
}

/** A resource a read reads and the id its count is kept under (the consent's, for a list). */
export interface TargetFound<R> {
  resource: R;
  countedUnder: string;
  /** The accounts or card accounts the read reaches (every one of a list): whose balances it may show. */
  reaches: readonly string[];
}

/**
 * What a read reads: the consent's list of accounts or of card accounts, or one of them by id (with
 * the checks before the count a read adds, `checked`). Made only by the factories below, so that a
 * read's count is always kept under the resource the consent shares, never one the read names.
 */
export class ReadTarget<R> {
  private constructor(
    /** Called by AisAccess.read with what the consent shares. */
    readonly find: (shares: ConsentShares) => Promise<TargetFound<R>>,
  ) {}

  /** The accounts the consent shares, counted under the consent. */
  static readonly accounts = new ReadTarget<readonly AisAccount[]>(async (shares) => ({
    resource: shares.accounts,
    countedUnder: shares.consentId,
    reaches: shares.accounts.map((a) => a.id),
  }));

  /** The card accounts the consent shares, counted apart from its accounts. */
  static readonly cards = new ReadTarget<readonly AisCardAccount[]>(async (shares) => ({
    resource: shares.cards,
    countedUnder: `cards:${shares.consentId}`,
    reaches: shares.cards.map((k) => k.id),
  }));

  static account(accountId: string): ReadTarget<AisAccount> {
    return new ReadTarget(async (shares) => {
      const account = shares.accounts.find((a) => a.id === accountId);
      if (account === undefined) throw notShared('accountId', 'account', accountId);
      return { resource: account, countedUnder: account.id, reaches: [account.id] };
    });
  }

  static card(cardAccountId: string): ReadTarget<AisCardAccount> {
    return new ReadTarget(async (shares) => {
      const card = shares.cards.find((k) => k.id === cardAccountId);
      if (card === undefined) throw notShared('cardAccountId', 'card account', cardAccountId);
      return { resource: card, countedUnder: card.id, reaches: [card.id] };
    });
  }

  /**
   * The same target with what must hold before the read counts (a read refused here is not
   * counted); what `check` returns is what the view reads. The count stays under this target's resource.
   */
  checked<S>(check: (resource: R, rules: ReadRules) => Promise<S>): ReadTarget<S> {
    return new ReadTarget(async (shares) => {
      const { resource, countedUnder, reaches } = await this.find(shares);
      return { resource: await check(resource, shares.rules), countedUnder, reaches };
    });
  }

  /** A transaction listing of this target: booked transactions asked for pass the 90-day rule from dateFrom. */
  listing(query: TransactionListQuery): ReadTarget<R> {
    return this.checked(async (resource, rules) => {
      if (includesBooked(query.bookingStatus)) await rules.requireHistory(query.dateFrom, 'query:dateFrom');
      return resource;
    });
  }
}

function notShared(param: string, what: string, id: string): ApiError {
  const text = `no ${what} ${id} is among those the PSU shared in this consent`;
  return new ApiError('RESOURCE_UNKNOWN', text, [{ code: 'RESOURCE_UNKNOWN', path: `path:${param}`, text }]);
}
