import { acceptedFixes } from '../../domain/accept-fix.js';
import { historyStart, needsScaForHistory } from '../../domain/ais-consent.js';
import { ApiError, type TppMessage } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { type Json, withWarnings } from '../../domain/json.js';
import { AIS_HISTORY_WITHOUT_SCA_DAYS, AIS_UNATTENDED_READS_PER_DAY } from '../../domain/limits.js';
import { type ReadKind, unattendedReadDay, unattendedReadKey } from '../../domain/unattended-reads.js';
import type { AisAccount, AisCardAccount } from '../../store/ais-records.js';
import type { Store } from '../../store/store.js';
import { type BankCore, CoreUnavailable } from '../../core/bank-core.js';
import type { Banks } from '../banks.js';
import type { RequestContext } from '../request-context.js';
import type { AisConsents, ConsentInForce } from './ais-consents.js';
import type { AisRead, ConsentShares } from './ais-read.js';

/** What a read tells account information about itself: the request's facts it needs (RequestContext). */
export type AisRequest = Pick<RequestContext, 'tpp' | 'sca' | 'psuPresent' | 'acceptFix'>;

/** A read the consent allows: the accounts it shares as they are now, the bank's time, the changes in force. */
interface Reading extends ConsentInForce {
  request: AisRequest;
  bank: string;
  accounts: AisAccount[];
  cards: AisCardAccount[];
  today: string;
  fixes: ReadonlySet<string>;
  /** WARNINGs for x-accept-fix names the bank does not know. */
  warnings: TppMessage[];
}

/**
 * The rules every account-information read passes (docs/ais.md), in `read`, the only way to what a
 * consent shares: a consent in force; the account in it (and still the PSU's to share, or still
 * theirs to VIEW for the agreement); history older than 90 days only with an SCA at most 90 days old;
 * without the PSU present, at most four reads a day. The steps are private (#) so that no read can
 * open a consent without counting.
 */
export class AisAccess {
  constructor(
    private readonly store: Pick<Store, 'countUnattendedReads' | 'releaseUnattendedReads'>,
    private readonly core: Pick<BankCore, 'shareableAccounts'>,
    private readonly banks: Banks,
    private readonly consents: AisConsents,
  ) {}

  /** The read `read` declares: its resource found, its checks passed, counted, then its view with the WARNINGs. */
  async read<R>(request: AisRequest, read: AisRead<R>): Promise<Json> {
    const reading = await this.#open(request);
    const shares: ConsentShares = {
      consentId: reading.consent.id,
      accounts: reading.accounts,
      cards: reading.cards,
      rules: { requireHistory: (dateFrom, path) => this.#requireHistory(reading, dateFrom, path) },
    };
    const { resource, countedUnder, reaches } = await read.of.find(shares);
    const withBalance = read.withBalance === true;
    const counted: Counted[] = [{ kind: read.counts, resourceId: countedUnder }];
    if (withBalance && read.counts !== 'balances')
      counted.push(...reaches.map((resourceId) => ({ kind: 'balances' as const, resourceId })));
    await this.#count(reading, counted);
    let answer: Json;
    try {
      answer = await read.view({
        resource,
        fixes: reading.fixes,
        today: reading.today,
        bank: reading.bank,
        withBalance,
      });
    } catch (error) {
      // The bank's core did not answer: the TPP got nothing, so the read spends nothing (issue 38).
      if (error instanceof CoreUnavailable) await this.#uncount(reading, counted);
      throw error;
    }
    return withWarnings(answer, reading.warnings);
  }

  async #open(request: AisRequest): Promise<Reading> {
    const inForce = await this.consents.inForce(request.tpp, request.sca);
    const { consent, resources } = inForce;
    const bank = this.banks.of(request.tpp.id);
    // What the consent shares, as far as the PSU may still share it: an account sold, deleted, or no
    // longer the PSU's to VIEW for the agreement drops out.
    const now = await this.core.shareableAccounts(bank, consent.customerId, consent.agreementId);
    const chosen = new Set(resources.map((r) => `${r.kind}:${r.id}`));
    const today = osloDate(inForce.now);
    const fixes = acceptedFixes(request.acceptFix, today);
    return {
      ...inForce,
      request,
      bank,
      accounts: now.accounts.filter((a) => chosen.has(`account:${a.id}`)),
      cards: now.cards.filter((k) => chosen.has(`card:${k.id}`)),
      today,
      fixes: fixes.active,
      warnings: fixes.warnings,
    };
  }

  /**
   * spec, Authentication 10: transactions booked more than 90 days ago need an SCA at most 90 days
   * old. A read reaching back further is answered 401 with an scaRedirect that renews the consent's
   * SCA (docs/decisions/0196).
   */
  async #requireHistory(reading: Reading, dateFrom: string | undefined, path: string): Promise<void> {
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
   * and kind of read, per Norwegian day; the fifth of a day is 429 ACCESS_EXCEEDED. Every read
   * answered counts, a resend of the same request too (the same X-Request-ID): each is an access that
   * reads the data as it is now (docs/decisions/0198). Balances shown with withBalance
   * count as balances reads; one used up refuses the whole read, and then nothing of it is counted.
   */
  async #uncount(reading: Reading, counted: readonly Counted[]): Promise<void> {
    if (reading.request.psuPresent) return;
    const keys = counted.map((c) => unattendedReadKey(c.kind, c.resourceId));
    await this.store.releaseUnattendedReads(reading.request.tpp.id, keys, unattendedReadDay(reading.now));
  }

  async #count(reading: Reading, counted: readonly Counted[]): Promise<void> {
    const { request } = reading;
    if (request.psuPresent) return;
    const keys = counted.map((c) => unattendedReadKey(c.kind, c.resourceId));
    const beyond = await this.store.countUnattendedReads(request.tpp.id, keys, unattendedReadDay(reading.now));
    if (beyond === undefined) return;
    const refused = counted[keys.indexOf(beyond)]!;
    throw accessExceeded(refused.kind, refused.resourceId, reading.today, refused.kind !== counted[0]!.kind);
  }
}

/** A count a read makes: its kind, under the resource (or the consent, for a list). */
interface Counted {
  kind: ReadKind;
  resourceId: string;
}

function accessExceeded(kind: ReadKind, resourceId: string, today: string, byWithBalance: boolean): ApiError {
  const what =
    kind === 'accounts'
      ? 'the list of accounts of this consent'
      : `${kind === 'account' ? 'the details' : `the ${kind}`} of ${resourceId}`;
  return new ApiError(
    'ACCESS_EXCEEDED',
    `${what}: read ${AIS_UNATTENDED_READS_PER_DAY} times today (${today}) without the PSU present`,
    [
      {
        code: 'ACCESS_EXCEEDED',
        path: 'header:PSU-IP-Address',
        text: `${what}: read ${AIS_UNATTENDED_READS_PER_DAY} times today (${today}, Norwegian time by the bank's clock) without PSU-IP-Address; PSD2 RTS article 36(5) allows ${AIS_UNATTENDED_READS_PER_DAY} reads a day without the PSU: send PSU-IP-Address when the PSU asks, or read again tomorrow${byWithBalance ? ' (withBalance reads the balances: leave it out to read the rest)' : ''}`,
      },
    ],
  );
}
