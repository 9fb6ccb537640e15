import { BANK_FACTS_CHECK_MS, BANK_FACTS_HELD } from '../domain/limits.js';
import type { BankFactsRead } from '../store/sandbox-data-store.js';
import type { Store } from '../store/store.js';
import { whenSettled, wrapStoreMethods } from '../store/store-wrapper.js';
import { RepeatingJob } from './repeating-job.js';
import { UnderWay } from './under-way.js';

type FactsStore = Pick<Store, 'readBankFacts' | 'bankFactsVersions'>;

/**
 * The store's methods that can change a bank's clock, or arm a fault in it: after one, this process
 * reads that bank's facts again (every bank's, for a method not given the bank). The triggers of
 * migration 029 raise the versions other processes compare. A bank's making (openBank, enterBank)
 * changes nothing held: a bank held without a row is at offset 0 with nothing armed, as a new one is.
 * A fault disarmed or spent only makes "armed" stale, which is answered by reading the faults, as
 * when one is armed, until the next check.
 */
export const BANK_FACT_WRITES: ReadonlySet<string> = new Set([
  'writeClockOffset',
  'armSandboxScenario',
  'disarmSandboxScenario',
  'initializeSandbox',
  'restoreSnapshot',
  'finishRestores',
  'deleteBankChunk',
] satisfies (keyof Store)[]);

/**
 * What every signed sandbox request needs of its bank, held in the process (docs/decisions/0342):
 * the clock's offset and whether a bank fault is armed. A request reads the database only for a
 * bank not held, or when a fault is armed (to take one of its times). Every BANK_FACTS_CHECK_MS the
 * process asks the versions of the banks it holds, in one query, and forgets those that changed: a
 * clock move or an armed fault on another instance reaches it within that. Its own changes, made
 * through the store `watch` returns, are forgotten at once.
 */
export class BankFacts {
  private readonly held = new Map<string, BankFactsRead>();
  /** The reads under way, by bank; a forgetting drops them, so that no request after it waits for what was read before. */
  private readonly reading = new UnderWay<BankFactsRead>();
  /** Raised by every forgetting: a read that began before one does not keep what it read. */
  private generation = 0;
  private readonly job = new RepeatingJob(
    () => this.check(),
    BANK_FACTS_CHECK_MS,
    (error) => this.onError(error),
  );

  constructor(
    private readonly store: FactsStore,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** The bank's facts if this process holds them. */
  heldOf(bank: string): BankFactsRead | undefined {
    return this.held.get(bank);
  }

  /**
   * The bank's facts: held, or read and then held. The requests that come while they are read wait
   * for that read, then look again: at a process's first requests, each one in flight read them
   * for itself (16 reads of one bank on PostgreSQL where one is needed).
   */
  of(bank: string): Promise<BankFactsRead> {
    const known = this.held.get(bank);
    if (known !== undefined) return Promise.resolve(known);
    const pending = this.reading.get(bank);
    if (pending !== undefined)
      return pending.then(
        () => this.afterWaiting(bank),
        () => this.read(bank),
      );
    return this.reading.start(bank, this.read(bank));
  }

  /**
   * For a request that waited for a read that succeeded: the facts held; or, when a change came
   * meanwhile, the read begun since (which a failure leaves to the request itself), or one of its
   * own. A request that waited for a read that failed reads for itself: all such at once.
   */
  private afterWaiting(bank: string): BankFactsRead | Promise<BankFactsRead> {
    const held = this.held.get(bank);
    if (held !== undefined) return held;
    const since = this.reading.get(bank);
    return since === undefined ? this.read(bank) : since.catch(() => this.read(bank));
  }

  private async read(bank: string): Promise<BankFactsRead> {
    const generation = this.generation;
    const read = await this.store.readBankFacts(bank);
    if (generation === this.generation) {
      if (this.held.size >= BANK_FACTS_HELD) this.held.clear();
      this.held.set(bank, read);
    }
    return read;
  }

  /** The store, its writes of a bank's clock or faults forgetting that bank's facts (all, when not given the bank) when they end. */
  watch(store: Store): Store {
    return wrapStoreMethods(store, (name, call) =>
      BANK_FACT_WRITES.has(name)
        ? (...args: unknown[]) =>
            whenSettled(
              () => call(args),
              () => (typeof args[0] === 'string' ? this.forget(args[0]) : this.forgetAll()),
            )
        : undefined,
    );
  }

  forget(bank: string): void {
    this.held.delete(bank);
    this.reading.drop(bank);
    this.generation += 1;
  }

  forgetAll(): void {
    this.held.clear();
    this.reading.clear();
    this.generation += 1;
  }

  /** Forgets the banks whose version in the database is not the one held (another instance changed them, or removed them). */
  async check(): Promise<void> {
    if (this.held.size === 0) return;
    const banks = [...this.held.keys()];
    const versions = await this.store.bankFactsVersions(banks);
    for (const bank of banks) {
      const held = this.held.get(bank);
      if (held === undefined || versions.get(bank) === held.version) continue;
      this.forget(bank);
    }
  }

  start(): void {
    this.job.start(false);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }
}
