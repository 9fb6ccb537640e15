import type { Mode } from '../config/config.js';
import { ApiError } from '../domain/api-error.js';
import { BankLimitReached } from '../domain/bank.js';
import { MAX_SANDBOX_BANKS } from '../domain/limits.js';
import { type Clock, systemClock } from '../domain/clock.js';
import { defaultDataSet } from '../sandbox/default-data-set.js';
import type { Store } from '../store/store.js';

/** Production's one bank: every row of production has this bank (migration 008). No TPP's id is empty. */
export const PRODUCTION_BANK = '';

/** A bank's business clock: the base clock (the wall clock) plus the bank's offset. */
export interface BankClock extends Clock {
  readonly offsetMs: number;
}

/**
 * The banks (docs/decisions.md, "One sandbox bank per TPP"). In sandbox mode each TPP (organisation
 * identifier) has a bank of its own, made with a copy of the default data set when the TPP first
 * sends a signed request, and a business clock of its own that only it moves. In production there
 * is one bank and the wall clock.
 */
export class Banks {
  /** Banks known to exist: banks are never removed, so each is looked for once per process. */
  private readonly made = new Set<string>();

  constructor(
    private readonly store: Store,
    readonly mode: Mode,
    private readonly base: Clock = systemClock,
    private readonly maxBanks = MAX_SANDBOX_BANKS,
  ) {}

  /** The bank a TPP's requests work in. */
  of(tppId: string): string {
    return this.mode === 'sandbox' ? tppId : PRODUCTION_BANK;
  }

  /** Makes the TPP's sandbox bank on its first use (a copy of the default data set, its clock at the wall clock). */
  async ensure(tppId: string): Promise<void> {
    if (this.mode !== 'sandbox') return;
    const bank = this.of(tppId);
    if (this.made.has(bank)) return;
    try {
      await this.store.openBank(bank, this.base.now(), defaultDataSet, this.maxBanks);
    } catch (error) {
      if (!(error instanceof BankLimitReached)) throw error;
      throw new ApiError(
        'ACCESS_EXCEEDED',
        `this sandbox keeps ${error.limit} banks, one per TPP, and has no room for a bank of ${tppId}; TPPs that have a bank here go on as before. Ask the sandbox's operator`,
      );
    }
    this.made.add(bank);
  }

  /** The business clock of the TPP's bank, read now (another instance may have moved it). */
  clockOf(tppId: string): Promise<BankClock> {
    return this.clockOfBank(this.of(tppId));
  }

  async now(tppId: string): Promise<Date> {
    return (await this.clockOf(tppId)).now();
  }

  async clockOfBank(bank: string): Promise<BankClock> {
    // Production's clock is the wall clock: nothing to read.
    return this.clockAt(this.mode === 'sandbox' ? await this.store.readClockOffset(bank) : 0n);
  }

  /** The business clock of a bank whose offset was read already (with a payment, Store.findPayment): the wall clock in production. */
  clockAt(offsetMs: bigint): BankClock {
    return this.clockWithOffset(this.mode === 'sandbox' ? Number(offsetMs) : 0);
  }

  /** Every bank whose batch runs, with its clock: production's, or each sandbox bank made so far, in one read. */
  async clocks(): Promise<{ bank: string; clock: BankClock }[]> {
    if (this.mode !== 'sandbox') return [{ bank: PRODUCTION_BANK, clock: this.clockWithOffset(0) }];
    return (await this.store.listBankClocks()).map(({ bank, clockOffsetMs }) => ({
      bank,
      clock: this.clockWithOffset(Number(clockOffsetMs)),
    }));
  }

  private clockWithOffset(offsetMs: number): BankClock {
    const base = this.base;
    return { offsetMs, now: () => new Date(base.now().getTime() + offsetMs) };
  }

  /** Moves the TPP's bank's clock forward to a later instant (sandbox only). */
  async advance(tppId: string, target: Date): Promise<void> {
    const clock = await this.clockOf(tppId);
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
      throw backwards((await this.clockOf(tppId)).now());
  }
}
