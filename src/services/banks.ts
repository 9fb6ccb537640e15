import { BankGate } from './bank-gate.js';
import type { BankFacts } from './bank-facts.js';
import type { LedgerStore } from '../store/ledger-store.js';
import type { UpkeepStore } from '../store/upkeep-records.js';
import type { Mode } from '../config/config.js';
import { ApiError } from '../domain/api-error.js';
import { AddressBankLimitReached, type BankEntry, BankLimitReached, type BankOwner } from '../domain/bank.js';
import {
  BANK_ENTRIES_CACHED,
  BANK_KEY_RECHECK_MS,
  MAX_NEW_SANDBOX_BANKS_PER_ADDRESS_PER_DAY,
  MAX_SANDBOX_BANKS,
  SANDBOX_BANK_IDLE_DAYS,
  SANDBOX_BANK_TOUCH_EVERY_MS,
  SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE,
} from '../domain/limits.js';
import { type Clock, osloDate, systemClock } from '../domain/clock.js';
import type { CertificateAnchor } from '../domain/certificate-anchor.js';
import { defaultDataSet } from '../sandbox/default-data-set.js';
import { UnderWay } from './under-way.js';

/** Production's one bank: every row of production has this bank (migration 008). No TPP's id is empty. */
export const PRODUCTION_BANK = '';

const DAY_MS = 86_400_000;

/** The sandbox's rules for banks shared by many TPPs (config: SANDBOX_BANKS_PER_ADDRESS, SANDBOX_BANK_IDLE_DAYS). */
export interface BankTenancy {
  /** New banks one client address (an IPv6 address's /64) makes in 24 hours. */
  newBanksPerAddressPerDay: number;
  /** Days a bank is kept unused before the retention job removes it with all its data. */
  idleDays: number;
  /** How often a bank's use is written while it is used. */
  touchEveryMs: number;
  /** Bulk operations (snapshot saves and restores, initialize) one TPP starts per minute. */
  bulkOperationsPerMinute: number;
}

export const DEFAULT_TENANCY: BankTenancy = {
  newBanksPerAddressPerDay: MAX_NEW_SANDBOX_BANKS_PER_ADDRESS_PER_DAY,
  idleDays: SANDBOX_BANK_IDLE_DAYS,
  touchEveryMs: SANDBOX_BANK_TOUCH_EVERY_MS,
  bulkOperationsPerMinute: SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE,
};

/** A request whose key is not bound to its organisation identifier's bank. */
function foreignKey(tppId: string): ApiError {
  return new ApiError(
    'FORBIDDEN',
    `the sandbox bank of ${tppId} belongs to the key that made it, and this certificate's key is not bound to it. Sign with that key, or ask for a certificate over it (POST /v1/sandbox/certificates with publicKey; docs/security.md, "Tenancy")`,
  );
}

/** A self-service certificate whose key is not bound to a bank that a trusted CA's certificate made or used. */
function untrustedKey(tppId: string): ApiError {
  return new ApiError(
    'FORBIDDEN',
    `the sandbox bank of ${tppId} is used by a certificate of a CA this sandbox trusts, and this certificate is from the sandbox's self-service CA, whose key is not bound to the bank. Sign with the trusted certificate, or have it bind this key (POST /v1/sandbox/keys; docs/security.md, "Tenancy")`,
  );
}

/** The admission cache's entry: by key for a self-service certificate; one for every trusted certificate of the bank. */
function entryOf(bank: string, keySha256: string, anchor: CertificateAnchor): string {
  // A key is 64 hex digits, so '*trusted' is never a key's entry.
  return anchor === 'trusted' ? `${bank}\n*trusted` : `${bank}\n${keySha256}`;
}

/** A bank's business clock: the base clock (the wall clock) plus the bank's offset. */
export interface BankClock extends Clock {
  readonly offsetMs: number;
}

/**
 * The banks (docs/decisions/0181). In sandbox mode each TPP (organisation
 * identifier) has a bank of its own, made with a copy of the default data set when the TPP first
 * sends a signed request, and a business clock of its own that only it moves. In production there
 * is one bank and the wall clock.
 */
export class Banks {
  /**
   * Entries of this process, bank and key (or bank and trust, for every trusted CA's certificate of the
   * bank at once), with when the key was last found bound (the bank found) and when the bank's use was
   * last noted: an entry is looked up again after BANK_KEY_RECHECK_MS (so a key unbound on another
   * instance, or a bank removed by another instance's retention job, is noticed within it), and the
   * use is written at most once per `touchEveryMs`.
   */
  private readonly entered = new Map<string, { checked: number; touched: number }>();
  /**
   * The admission under way for an entry: the requests that come while it is asked of the store wait
   * for it rather than each asking again. At a process's first requests, and each time an entry's
   * recheck is due under load, every request in flight for the bank would otherwise read the bank
   * and write its use: 16 reads and 15 writes of one row on PostgreSQL, where one of each is needed.
   */
  private readonly admitting = new UnderWay<void>();
  /** Raised by every forgetting of a key: an admission that began before one does not keep its key. */
  private forgotten = 0;
  /** Each bank's gate in this process: its requests pass as readers, a bulk operation alone. */
  readonly gate = new BankGate();
  /** Banks whose use through their console this process noted, with when. */
  private readonly consoleUses = new Map<string, number>();

  constructor(
    private readonly store: LedgerStore & UpkeepStore,
    readonly mode: Mode,
    private readonly base: Clock = systemClock,
    private readonly maxBanks = MAX_SANDBOX_BANKS,
    private readonly tenancy: BankTenancy = DEFAULT_TENANCY,
    /** The banks' facts held in the process (bank-facts.ts); without, each request reads them. */
    private readonly facts?: Pick<BankFacts, 'of' | 'heldOf'>,
  ) {}

  /** The bank a TPP's requests work in. */
  of(tppId: string): string {
    return this.mode === 'sandbox' ? tppId : PRODUCTION_BANK;
  }

  /**
   * Lets a signed request into its TPP's sandbox bank (docs/decisions/0270 and docs/decisions/0271): makes
   * the bank on the TPP's first request (a copy of the
   * default data set, its clock at the wall clock), for the request's key when the sandbox's
   * self-service CA issued its certificate; else admits a certificate of a CA the operator trusts
   * whatever its key, and a self-service one only when its key is bound to the bank; notes the bank's
   * use at most once per `touchEveryMs`. Nothing to wait for (no promise) when this process admitted
   * the key within BANK_KEY_RECHECK_MS, as it has for nearly every request.
   */
  enter(tppId: string, keySha256: string, anchor: CertificateAnchor, address: string): Promise<void> | undefined {
    if (this.mode !== 'sandbox') return undefined;
    const bank = this.of(tppId);
    const entry = entryOf(bank, keySha256, anchor);
    const now = this.base.now().getTime();
    const known = this.entered.get(entry);
    if (known !== undefined && now - known.checked < BANK_KEY_RECHECK_MS) return undefined;
    const pending = this.admitting.get(entry);
    // Once it is settled: admitted, the entry lets this request in; refused (or forgotten meanwhile),
    // the request is asked of the store for itself, all such at once, each refused with an error of its own.
    const alone = () => this.admit(tppId, keySha256, anchor, address, this.base.now().getTime(), undefined);
    if (pending !== undefined) return pending.then(() => (this.entered.has(entry) ? undefined : alone()), alone);
    this.entered.delete(entry);
    return this.admitting.start(entry, this.admit(tppId, keySha256, anchor, address, now, known?.touched));
  }

  /** Finds or makes the bank for the key (enter), and notes its use when it is time to. */
  private async admit(
    tppId: string,
    keySha256: string,
    anchor: CertificateAnchor,
    address: string,
    now: number,
    lastTouched: number | undefined,
  ): Promise<void> {
    const bank = this.of(tppId);
    const forgotten = this.forgotten;
    const owner = { keySha256, address, ...(anchor === 'trusted' ? { trusted: true } : {}) };
    const found = await this.openOrFind(tppId, bank, owner, new Date(now));
    if (found === 'foreign') throw foreignKey(tppId);
    if (found === 'foreign-trusted') throw untrustedKey(tppId);
    if (found === 'removing')
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `the sandbox bank of ${tppId} is being removed, unused for ${this.tenancy.idleDays} days (docs/sandbox.md); send again in a minute for a new one`,
      );
    let touched = found === 'opened' ? now : (lastTouched ?? 0);
    if (now - touched >= this.tenancy.touchEveryMs) {
      await this.store.touchBank(bank, new Date(now));
      touched = now;
    }
    // A key unbound while it was looked up is not kept as admitted: the next request asks again.
    if (forgotten !== this.forgotten) return;
    if (this.entered.size >= BANK_ENTRIES_CACHED) this.entered.clear();
    this.entered.set(entryOf(bank, keySha256, anchor), { checked: now, touched });
  }

  /**
   * Forgets that a key was admitted to a bank, when it is unbound: this process asks the store again
   * at its next request. Other instances learn it within BANK_KEY_RECHECK_MS (docs/security.md, "Tenancy").
   */
  forget(bank: string, keySha256: string): void {
    const entry = entryOf(bank, keySha256, 'self-service');
    this.entered.delete(entry);
    this.admitting.drop(entry);
    this.forgotten += 1;
  }

  private async openOrFind(tppId: string, bank: string, owner: BankOwner, now: Date): Promise<BankEntry> {
    const perAddress = { limit: this.tenancy.newBanksPerAddressPerDay, since: new Date(now.getTime() - DAY_MS) };
    try {
      return await this.store.enterBank(bank, { ...owner, perAddress }, now, defaultDataSet, this.maxBanks);
    } catch (error) {
      if (error instanceof AddressBankLimitReached)
        throw new ApiError(
          'ACCESS_EXCEEDED',
          `one address makes at most ${error.limit} sandbox banks a day, and this one has; the bank of ${tppId} is not made. Send with an organisation identifier whose bank you made already, or again tomorrow`,
        );
      if (!(error instanceof BankLimitReached)) throw error;
      throw new ApiError(
        'ACCESS_EXCEEDED',
        `this sandbox keeps ${error.limit} banks, one per TPP, and has no room for a bank of ${tppId}; TPPs that have a bank here go on as before. Ask the sandbox's operator`,
      );
    }
  }

  /**
   * Notes a use of the TPP's sandbox bank that comes without a signed request (its console), at most
   * once per `touchEveryMs`; false when the bank is gone or being removed.
   */
  async noteUse(tppId: string): Promise<boolean> {
    const bank = this.of(tppId);
    const now = this.base.now().getTime();
    const touched = this.consoleUses.get(bank);
    if (touched !== undefined && now - touched < this.tenancy.touchEveryMs) return true;
    this.consoleUses.delete(bank);
    if (!(await this.store.touchBank(bank, new Date(now)))) return false;
    if (this.consoleUses.size >= BANK_ENTRIES_CACHED) this.consoleUses.clear();
    this.consoleUses.set(bank, now);
    return true;
  }

  /** Bulk operations one TPP starts per minute (services/sandbox/bank-bulk.ts). */
  get bulkOperationsPerMinute(): number {
    return this.tenancy.bulkOperationsPerMinute;
  }

  /** The wall clock, which every bank's business clock runs from (the base clock a test gives). */
  wallNow(): Date {
    return this.base.now();
  }

  /** The business clock of the TPP's bank, read now (another instance may have moved it). */
  clockOf(tppId: string): Promise<BankClock> {
    return this.clockOfBank(this.of(tppId));
  }

  async now(tppId: string): Promise<Date> {
    return (await this.clockOf(tppId)).now();
  }

  async clockOfBank(bank: string): Promise<BankClock> {
    if (this.facts === undefined || this.mode !== 'sandbox') return this.storedClockOfBank(bank);
    return this.clockAt((await this.facts.of(bank)).clockOffsetMs);
  }

  /** Whether a bank fault may be armed in the bank: false only when the facts held say none is. */
  async mayHaveFault(bank: string): Promise<boolean> {
    return this.facts === undefined || (await this.facts.of(bank)).faultArmed;
  }

  /** True when the facts this process holds say no fault is armed in the bank: known without a read or a promise. */
  surelyFaultFree(bank: string): boolean {
    return this.facts?.heldOf(bank)?.faultArmed === false;
  }

  /** The business clock of a bank whose offset was read already (with a payment, Store.findPayment): the wall clock in production. */
  clockAt(offsetMs: bigint): BankClock {
    return this.clockWithOffset(this.mode === 'sandbox' ? Number(offsetMs) : 0);
  }

  /**
   * The banks the scheduler has work in now, with their clocks: authorised payments waiting for a
   * batch run, or a standing order due by the bank's own date. Production's one bank always.
   */
  async withWork(): Promise<{ bank: string; clock: BankClock }[]> {
    if (this.mode !== 'sandbox') return [{ bank: PRODUCTION_BANK, clock: this.clockWithOffset(0) }];
    const due: { bank: string; clock: BankClock }[] = [];
    for (const work of await this.store.findBanksWithWork()) {
      const clock = this.clockWithOffset(Number(work.clockOffsetMs));
      const standingDue =
        work.nextStandingOrderDate !== undefined && work.nextStandingOrderDate <= osloDate(clock.now());
      if (work.paymentsWaiting || standingDue) due.push({ bank: work.bank, clock });
    }
    return due;
  }

  /** One clock per distinct offset of the banks' clocks: the scheduler's next wake follows from these. */
  async distinctClocks(): Promise<BankClock[]> {
    if (this.mode !== 'sandbox') return [this.clockWithOffset(0)];
    return (await this.store.listClockOffsets()).map((offset) => this.clockWithOffset(Number(offset)));
  }

  private clockWithOffset(offsetMs: number): BankClock {
    const base = this.base;
    return { offsetMs, now: () => new Date(base.now().getTime() + offsetMs) };
  }

  /**
   * The bank's clock as the database has it, not as this process holds it: for a move, which builds
   * on the time now, so that a move through another instance a moment before counts (bank-facts.ts).
   */
  storedClockOf(tppId: string): Promise<BankClock> {
    return this.storedClockOfBank(this.of(tppId));
  }

  private async storedClockOfBank(bank: string): Promise<BankClock> {
    // Production's clock is the wall clock: nothing to read.
    return this.clockAt(this.mode === 'sandbox' ? await this.store.readClockOffset(bank) : 0n);
  }

  /** Moves the TPP's bank's clock forward to a later instant (sandbox only). */
  async advance(tppId: string, target: Date): Promise<void> {
    const clock = await this.storedClockOf(tppId);
    const now = clock.now();
    const backwards = (at: Date) =>
      new ApiError(
        'FORMAT_ERROR',
        `the sandbox clock only moves forward: ${target.toISOString()} is not after its time now, ${at.toISOString()}`,
      );
    if (target.getTime() <= now.getTime()) throw backwards(now);
    // Checked again in the write: a move that another request overtook meanwhile is refused the same way.
    const base = this.base.now();
    if (!(await this.store.writeClockOffset(this.of(tppId), BigInt(target.getTime() - base.getTime()), base)))
      throw backwards((await this.storedClockOf(tppId)).now());
  }
}
