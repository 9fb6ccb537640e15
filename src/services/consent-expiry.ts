import type { ConsentStore } from '../store/consent-store.js';
import type { ConsentsAmong } from '../store/ais-records.js';
import { CONSENT_EXPIRY_BATCH, CONSENT_EXPIRY_INTERVAL_MS } from '../domain/limits.js';
import { PSU_SESSION_VALIDITY_DAYS, isSessionValid } from '../domain/sca.js';
import type { Banks } from './banks.js';
import { RepeatingJob } from './repeating-job.js';

type ExpiryStore = Pick<ConsentStore, 'findExpiringConsents' | 'expireConsents'>;

const VALIDITY_MS = PSU_SESSION_VALIDITY_DAYS * 86_400_000;

/**
 * Writes a consent down as expired once its SCA is 180 days old by its bank's clock (spec,
 * Authentication 10), so that its status change notifies the TPP (docs/decisions/0340). A read
 * judges the age itself and never waits for this. Every instance looks each minute: the update
 * changes only consents still valid, so two instances looking at once expire each one once. A clock
 * move in the sandbox looks at once for its bank.
 */
export class ConsentExpiry {
  private readonly job = new RepeatingJob(
    () => this.expireDue(),
    CONSENT_EXPIRY_INTERVAL_MS,
    (error) => this.onError(error),
  );

  constructor(
    private readonly store: ExpiryStore,
    private readonly banks: Pick<Banks, 'distinctClocks' | 'wallNow' | 'clockOfBank'>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /**
   * Expires what is due in every bank, at most CONSENT_EXPIRY_BATCH a look; how many. First by the
   * slowest clock (no bank's is behind it, so each consent found is due), then for each clock that
   * runs ahead of it (the sandbox's moved banks), by that clock among its banks: a look never fills
   * with consents not yet due.
   */
  async expireDue(): Promise<number> {
    const wall = this.banks.wallNow().getTime();
    const offsets = (await this.banks.distinctClocks()).map((c) => c.offsetMs);
    const slowest = Math.min(0, ...offsets);
    let expired = await this.expire(wall + slowest, undefined);
    for (const offset of offsets.filter((o) => o > slowest)) {
      expired += await this.expire(wall + offset, { clockOffsetMs: BigInt(offset) });
    }
    return expired;
  }

  /** Expires what is due in one bank by its clock now (after a clock move); how many. */
  async expireBank(bank: string): Promise<number> {
    return this.expire((await this.banks.clockOfBank(bank)).now().getTime(), { bank });
  }

  /**
   * Expires the consents among `among` whose SCA is 180 days old at `nowMs`, each judged by its own
   * bank's clock as the database has it (the offset read with it).
   */
  private async expire(nowMs: number, among: ConsentsAmong): Promise<number> {
    const wall = this.banks.wallNow().getTime();
    const candidates = await this.store.findExpiringConsents(
      new Date(nowMs - VALIDITY_MS),
      among,
      CONSENT_EXPIRY_BATCH,
    );
    const byBank = new Map<string, { at: Date; ids: string[] }>();
    for (const consent of candidates) {
      const at = new Date(wall + Number(consent.clockOffsetMs));
      if (isSessionValid(consent.scaAt, at)) continue;
      const group = byBank.get(consent.bank) ?? { at, ids: [] };
      group.ids.push(consent.id);
      byBank.set(consent.bank, group);
    }
    let expired = 0;
    for (const { at, ids } of byBank.values()) expired += await this.store.expireConsents(ids, at);
    return expired;
  }
}
