import type { UpkeepStore } from './upkeep-records.js';
import type { SnapshotStore } from './snapshot-records.js';
import type { BankOverviewStore } from './bank-overview-records.js';
import type { BindingStore } from './binding-store.js';
import type { PaymentStore } from './payment-store.js';
import type { ScaStore } from './sca-store.js';
import type { BasketStore } from './basket-store.js';
import type { ConsentStore } from './consent-store.js';
import type { LedgerStore } from './ledger-store.js';
import type { SandboxDataStore } from './sandbox-data-store.js';
import type { HandoverStore } from './handover-store.js';
import type { ConsoleSessionStore } from './console-session-store.js';
import type { NotificationStore } from './notification-store.js';

export type {
  TppRequestRecord,
  StoredTppRequest,
  StoredSubscription,
  ResourceRef,
  NewSubscription,
} from './tpp-request-records.js';
export type {
  CancelResult,
  CreatePaymentOptions,
  CreatePaymentResult,
  LogicalDuplicate,
  StoredPayment,
} from './payment-store.js';

/** Opening, migrating and closing the database. */
export interface StoreLifecycle {
  readonly kind: 'sqlite' | 'postgres';
  /** Brings the schema to the latest version; safe to run on every start and from several instances. */
  migrate(): Promise<void>;
  /** Names of the migrations applied, oldest first. */
  appliedMigrations(): Promise<string[]>;
  /** Round trip to the database; rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The storage the services use, composed of one small interface per area; a service takes the areas
 * (or the methods) it uses, never the whole. Two implementations stand side by side behind it,
 * sqlite/ (the embedded default) and postgres/ (several server instances on one database), and one
 * contract test suite runs against both.
 */
export interface Store
  extends
    StoreLifecycle,
    BindingStore,
    PaymentStore,
    ScaStore,
    BasketStore,
    ConsentStore,
    LedgerStore,
    SandboxDataStore,
    HandoverStore,
    UpkeepStore,
    SnapshotStore,
    BankOverviewStore,
    ConsoleSessionStore,
    NotificationStore {}
