/**
 * One process's gate of each sandbox bank (docs/decisions/0316):
 * the bank's requests, console uses and batch runs pass as readers, many at once; a bulk operation
 * that changes the bank in slices (a restore on SQLite) or reads it in pages (a save) passes alone.
 * It waits for the readers in flight and holds new ones until it is done, so none of them sees the
 * bank half written. Other banks never wait here.
 */
export class BankGate {
  private readonly banks = new Map<string, GateState>();

  /**
   * Lets a reader in: its release at once when no bulk operation holds or waits for the bank (as for
   * nearly every request: no promise then), else a promise of it once none does.
   */
  read(bank: string): (() => void) | Promise<() => void> {
    const state = this.stateOf(bank);
    if (!state.writing && state.writers.length === 0) {
      state.readers++;
      return this.releaseOf(bank, state);
    }
    return new Promise<void>((resume) => state.waitingReaders.push(resume)).then(() => this.releaseOf(bank, state));
  }

  /** A reader's release: once, however often it is called. */
  private releaseOf(bank: string, state: GateState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.readers--;
      this.wake(bank, state);
    };
  }

  /** Runs `work` alone on the bank, once the readers in flight are done; the caller holds no reader of it. */
  async alone<T>(bank: string, work: () => Promise<T>): Promise<T> {
    const state = this.stateOf(bank);
    await new Promise<void>((resume) => {
      state.writers.push(resume);
      this.wake(bank, state);
    });
    try {
      return await work();
    } finally {
      state.writing = false;
      this.wake(bank, state);
    }
  }

  /** Whether a bulk operation holds or waits for the bank in this process. */
  busy(bank: string): boolean {
    const state = this.banks.get(bank);
    return state !== undefined && (state.writing || state.writers.length > 0);
  }

  private stateOf(bank: string): GateState {
    let state = this.banks.get(bank);
    if (state === undefined) {
      state = { readers: 0, writing: false, writers: [], waitingReaders: [] };
      this.banks.set(bank, state);
    }
    return state;
  }

  private wake(bank: string, state: GateState): void {
    if (state.writing) return;
    const writer = state.writers[0];
    if (writer !== undefined) {
      if (state.readers > 0) return;
      state.writers.shift();
      state.writing = true;
      writer();
      return;
    }
    state.readers += state.waitingReaders.length;
    for (const resume of state.waitingReaders.splice(0)) resume();
    // An idle bank keeps no entry: the map holds the banks in use now, not every bank ever seen.
    if (state.readers === 0) this.banks.delete(bank);
  }
}

interface GateState {
  readers: number;
  writing: boolean;
  writers: (() => void)[];
  waitingReaders: (() => void)[];
}
