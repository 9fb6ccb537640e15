import { randomUUID } from 'node:crypto';
import { PSU_CODE_FAILURE_WINDOW_MINUTES } from '../../domain/limits.js';
import { type NationalIdKey, hashNationalId } from '../../domain/psu.js';
import type { BankCore } from '../../core/bank-core.js';
import type { Authorisation } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import { type Banks, PRODUCTION_BANK } from '../banks.js';
import { namedPsus } from './named-psu.js';
import type { ScaPayments } from './sca-payments.js';

/** A one-time code attempt on record, and the most attempts any of the PSU's keys has in the window, this one included. */
export interface CodeAttempt {
  attemptId: string;
  psuAttempts: number;
}

/**
 * Wrong one-time codes per PSU, across links and server instances (docs/sca.md, "Wrong codes per
 * PSU"): every attempt is counted for the PSU before the code is checked, and released when the code
 * was right.
 */
export class CodeLockout {
  constructor(
    private readonly store: Pick<Store, 'reserveCodeAttempt' | 'releaseCodeAttempt' | 'findPsuSession'>,
    private readonly core: Pick<BankCore, 'findCustomer'>,
    private readonly banks: Banks,
    private readonly nationalIdKey: NationalIdKey,
    private readonly payments: ScaPayments,
  ) {}

  async reserve(authorisation: Authorisation, typed: string, now: Date): Promise<CodeAttempt> {
    const attemptId = randomUUID();
    const psuAttempts = await this.store.reserveCodeAttempt(
      attemptId,
      await this.keys(authorisation, typed),
      now,
      new Date(now.getTime() - PSU_CODE_FAILURE_WINDOW_MINUTES * 60_000),
    );
    return { attemptId, psuAttempts };
  }

  async release(attempt: CodeAttempt): Promise<void> {
    await this.store.releaseCodeAttempt(attempt.attemptId);
  }

  /**
   * The keys a one-time code attempt counts under: the customer number typed and every PSU the
   * authorisation and its payments name, each as the keyed hash of its national identity number
   * (the sandbox's customer numbers are national identity numbers), so no number is stored in clear.
   */
  private async keys(authorisation: Authorisation, typed: string): Promise<string[]> {
    const keys = new Set<string>();
    if (typed !== '') keys.add(hashNationalId(this.nationalIdKey, typed));
    const payments =
      authorisation.kind === 'session' || authorisation.kind === 'consent' ? [] : await this.payments.of(authorisation);
    for (const { psuId, hash } of namedPsus(authorisation, payments)) {
      if (hash !== undefined) keys.add(hash);
      if (psuId === undefined) continue;
      const session = await this.store.findPsuSession(authorisation.tppId, psuId);
      const customer =
        session === undefined
          ? undefined
          : await this.core.findCustomer(this.banks.of(authorisation.tppId), { id: session.customerId });
      if (customer !== undefined) keys.add(hashNationalId(this.nationalIdKey, customer.customerNumber));
    }
    // In the sandbox a customer number is a PSU of one TPP's bank, counted by that bank's clock: another
    // TPP's wrong codes for the same number must not lock this one out. Production has one bank: its keys
    // carry no bank, as the attempts on record have them.
    const bank = this.banks.of(authorisation.tppId);
    return bank === PRODUCTION_BANK ? [...keys] : [...keys].map((key) => `bank:${bank}:${key}`);
  }
}
