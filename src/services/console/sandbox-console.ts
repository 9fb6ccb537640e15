import type { BankOverviewStore } from '../../store/bank-overview-records.js';
import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import type { SnapshotStore } from '../../store/snapshot-records.js';
import type { NotificationStore } from '../../store/notification-store.js';
import type { NotificationLogEntry } from '../../store/notification-records.js';
import { ApiError } from '../../domain/api-error.js';
import {
  CONSOLE_CONSENTS_LISTED,
  CONSOLE_CUSTOMERS_LISTED,
  CONSOLE_HISTORY_EVENTS_MAX,
  CONSOLE_PAYMENTS_LISTED,
  NOTIFICATION_LOG_ENTRIES,
} from '../../domain/limits.js';
import { PSU_SESSION_VALIDITY_DAYS, effectiveStatus } from '../../domain/sca.js';
import type { TransactionStatus } from '../../domain/transaction-status.js';
import type { ConsentSummary, PaymentSummary } from '../../store/bank-overview-records.js';
import type { SandboxAccount, SandboxCardAccount, SandboxCustomer } from '../../store/sandbox-records.js';
import type { Banks } from '../banks.js';
import type { BatchRunResult } from '../batch-run-result.js';
import type { SandboxDataService } from '../sandbox-data-service.js';
import type { ClockMoved, ClockReading, SandboxClock } from '../sandbox/sandbox-clock.js';
import type { ScenarioOperations } from '../sandbox/sandbox-scenarios.js';
import type { SnapshotSummary } from '../../store/snapshot-records.js';
import type { Json } from '../../domain/json.js';
import { type HistoryEvent, paymentHistory } from './payment-history.js';

/** A customer with its accounts and card accounts. */
export interface CustomerHoldings {
  customer: SandboxCustomer;
  accounts: SandboxAccount[];
  cards: SandboxCardAccount[];
}

/** A payment as the console lists it: its status as the API reads it now. */
export type ListedPayment = PaymentSummary & { shownStatus: TransactionStatus };

/** A consent as the console lists it, with the day it lasts until while it is valid. */
export type ListedConsent = ConsentSummary & { validUntil: Date | undefined };

/** A payment and its history. */
export interface PaymentStory {
  payment: ListedPayment & { feeMinor: bigint; feeCurrency: string; basketId: string | undefined };
  events: HistoryEvent[];
}

/**
 * What the sandbox console shows and does for one TPP (docs/console.md): its bank and nothing else.
 * Every method takes the TPP's id from its console session and works in `banks.of(tppId)`; the
 * actions are the ones the sandbox's API routes take (SandboxClock, SandboxDataService).
 */
export class SandboxConsole {
  constructor(
    private readonly store: BankOverviewStore &
      SandboxDataStore &
      SnapshotStore &
      Pick<NotificationStore, 'listNotifications' | 'resendNotification'>,
    private readonly banks: Banks,
    private readonly sandbox: SandboxDataService,
    readonly clock: SandboxClock,
    /** The operations a bank scenario may name (the API's, as the routes were added). */
    readonly operations: ScenarioOperations,
  ) {}

  readClock(tppId: string): Promise<ClockReading> {
    return this.clock.read(tppId);
  }

  /** The bank's customers (the default data set's first), each with its accounts and card accounts; `more` when some are not listed. */
  async customers(tppId: string): Promise<{ customers: CustomerHoldings[]; more: boolean }> {
    const bank = this.banks.of(tppId);
    const listed = await this.store.listSandboxCustomers(bank, 0, CONSOLE_CUSTOMERS_LISTED + 1);
    const customers = listed.slice(0, CONSOLE_CUSTOMERS_LISTED);
    const { accounts, cards } = await this.store.customerAccounts(
      bank,
      customers.map((c) => c.id),
    );
    return {
      customers: customers.map((customer) => ({
        customer,
        accounts: accounts.filter((a) => a.customerId === customer.id),
        cards: cards.filter((k) => k.customerId === customer.id),
      })),
      more: listed.length > CONSOLE_CUSTOMERS_LISTED,
    };
  }

  /** The bank's newest payments, each with its status as a read of it gives it now (a payment past its signing window reads RJCT). */
  async payments(tppId: string): Promise<ListedPayment[]> {
    const [payments, now] = await Promise.all([
      this.store.listPayments(tppId, this.banks.of(tppId), CONSOLE_PAYMENTS_LISTED),
      this.banks.now(tppId),
    ]);
    return payments.map((p) => ({ ...p, shownStatus: effectiveStatus(p.status, p.createdAt, now) }));
  }

  /** A payment of the bank with its history; RESOURCE_UNKNOWN for any other id (another bank's too). */
  async payment(tppId: string, paymentId: string): Promise<PaymentStory> {
    const [history, now] = await Promise.all([
      this.store.paymentHistory(tppId, this.banks.of(tppId), paymentId, CONSOLE_HISTORY_EVENTS_MAX),
      this.banks.now(tppId),
    ]);
    if (history === undefined)
      throw new ApiError('RESOURCE_UNKNOWN', `no payment ${paymentId} is in this TPP's sandbox bank`);
    return {
      payment: {
        ...history.payment,
        shownStatus: effectiveStatus(history.payment.status, history.payment.createdAt, now),
      },
      events: paymentHistory(history, now),
    };
  }

  /** The bank's newest consents; a valid one with the instant its SCA is 180 days old (spec, Authentication 10). */
  async consents(tppId: string): Promise<ListedConsent[]> {
    const consents = await this.store.listConsents(tppId, this.banks.of(tppId), CONSOLE_CONSENTS_LISTED);
    return consents.map((c) => ({
      ...c,
      validUntil:
        c.status === 'valid' && c.scaAt !== undefined
          ? new Date(c.scaAt.getTime() + PSU_SESSION_VALIDITY_DAYS * 86_400_000)
          : undefined,
    }));
  }

  /** Moves the bank's clock forward by whole hours; the batch slots passed run. */
  moveClock(tppId: string, hours: number): Promise<ClockMoved> {
    return this.clock.move(tppId, { advanceSeconds: hours * 3600 });
  }

  runBatch(tppId: string): Promise<BatchRunResult> {
    return this.clock.runNow(tppId);
  }

  /** The bank back to the default data set (POST /v1/sandbox/initialize). */
  async reset(tppId: string): Promise<void> {
    await this.sandbox.initializer.initialize({ id: tppId });
  }

  /** The bank's snapshots, oldest first (docs/sandbox.md, "Snapshots"). */
  snapshots(tppId: string): Promise<SnapshotSummary[]> {
    return this.store.listSnapshots(this.banks.of(tppId));
  }

  /** Saves the bank as it is now, by the snapshot service's rules and limits (409 past them). */
  async saveSnapshot(tppId: string, name: string | undefined): Promise<void> {
    await this.sandbox.snapshots.save({ id: tppId }, name);
  }

  /** Puts the bank back as the snapshot holds it; the slots its restored clock has come to run, as after the API's restore. */
  async restoreSnapshot(tppId: string, snapshotId: string): Promise<void> {
    await this.sandbox.snapshots.restore({ id: tppId }, snapshotId);
    await this.clock.catchUp(tppId);
  }

  async deleteSnapshot(tppId: string, snapshotId: string): Promise<void> {
    await this.sandbox.snapshots.remove({ id: tppId }, snapshotId);
  }

  /** The scenarios armed in the bank, oldest first, as GET /v1/sandbox/scenarios gives them. */
  scenarios(tppId: string): Promise<Json[]> {
    return this.sandbox.scenarios.list({ id: tppId });
  }

  /** Arms a scenario from a body as POST /v1/sandbox/scenarios takes it, by the same rules (docs/scenarios.md). */
  async armScenario(tppId: string, body: Record<string, unknown>): Promise<void> {
    await this.sandbox.scenarios.arm({ id: tppId }, body, this.operations);
  }

  async disarmScenario(tppId: string, scenarioId: string): Promise<void> {
    await this.sandbox.scenarios.disarm({ id: tppId }, scenarioId);
  }

  /** The TPP's notifications, newest first, with their tries (docs/notifications.md, "In the sandbox"). */
  notifications(tppId: string): Promise<NotificationLogEntry[]> {
    return this.store.listNotifications(tppId, NOTIFICATION_LOG_ENTRIES);
  }

  /**
   * Sends one of the TPP's notifications again, at once, with its event id; RESOURCE_UNKNOWN for any
   * other id (another TPP's too). The server's store nudges the relay after it (server-notifications.ts,
   * STATUS_WRITES), so the try starts now rather than at the next sweep.
   */
  async resendNotification(tppId: string, eventId: string): Promise<void> {
    if (!(await this.store.resendNotification(tppId, eventId)))
      throw new ApiError('RESOURCE_UNKNOWN', `no notification ${eventId} is this TPP's`);
  }
}
