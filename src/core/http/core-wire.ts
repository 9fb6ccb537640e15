import {
  ACCOUNT_STATUSES,
  type Account,
  type Agreement,
  type Customer,
  type Engagement,
  ENGAGEMENT_ROLES,
} from '../../domain/bank.js';
import { CORE_CALLBACK_REPORTS_MAX } from '../../domain/limits.js';
import type { TransferToExecute } from '../../domain/payment-execution.js';
import type {
  AisAccount,
  AisCardAccount,
  AisCardTransaction,
  AisTransaction,
  PendingPayment,
} from '../../store/ais-records.js';
import type { SandboxTransaction } from '../../store/sandbox-records.js';
import type { CoreReport, PaymentOrder } from '../core-records.js';
import {
  ContractViolation,
  type Json,
  amount,
  array,
  boolean,
  date,
  dateTime,
  integer,
  object,
  oneOf,
  optionalDate,
  optionalText,
  reason,
  status,
  text,
  wireAmount,
  wireReason,
  wireStatus,
} from './wire-values.js';

/**
 * The records of the port (src/core/core-records.ts, src/store/ais-records.ts, src/domain/bank.ts) as
 * the contract writes them (docs/core-api.yaml), and read back from a core's answer with the
 * contract's checks. The reference core writes with these, HttpCore reads with them: one mapping.
 */

const CUSTOMER_TYPES = ['PRIVATE', 'CORPORATE'] as const;

export function customerToWire(c: Customer): Json {
  return { customerId: c.id, customerNumber: c.customerNumber, name: c.name, customerType: c.type };
}

export function customerFromWire(value: unknown): Customer {
  const o = object(value, 'customer');
  return {
    id: text(o, 'customerId', 'customer'),
    customerNumber: text(o, 'customerNumber', 'customer'),
    name: text(o, 'name', 'customer'),
    type: oneOf(o, 'customerType', CUSTOMER_TYPES, 'customer'),
  };
}

export function agreementToWire(a: Agreement): Json {
  return { agreementId: a.id, ownerCustomerId: a.ownerCustomerId, name: a.name };
}

export function agreementFromWire(value: unknown): Agreement {
  const o = object(value, 'agreement');
  return {
    id: text(o, 'agreementId', 'agreement'),
    ownerCustomerId: text(o, 'ownerCustomerId', 'agreement'),
    name: text(o, 'name', 'agreement'),
  };
}

export function engagementToWire(e: Engagement): Json {
  return { agreementId: e.agreementId, customerId: e.customerId, accountId: e.accountId, roles: e.roles };
}

export function engagementFromWire(value: unknown): Engagement {
  const o = object(value, 'engagement');
  return {
    agreementId: text(o, 'agreementId', 'engagement'),
    customerId: text(o, 'customerId', 'engagement'),
    accountId: text(o, 'accountId', 'engagement'),
    roles: array(o, 'roles', 'engagement').map((role, i) =>
      oneOf({ role }, 'role', ENGAGEMENT_ROLES, `engagement.roles[${i}]`),
    ),
  };
}

export function accountToWire(a: Account | AisAccount): Json {
  return {
    resourceId: a.id,
    customerId: a.customerId,
    bban: a.bban,
    iban: a.iban,
    currency: a.currency,
    name: a.name,
    product: a.product,
    cashAccountType: a.cashAccountType,
    accountStatus: a.status,
    creditLimit: wireAmount(a.creditLineMinor, a.currency),
    balance: wireAmount(a.balanceMinor, a.currency),
    ...('ownerName' in a ? { ownerName: a.ownerName, ownerType: a.ownerType } : {}),
  };
}

export function accountFromWire(value: unknown, at = 'account'): Account {
  const o = object(value, at);
  return {
    id: text(o, 'resourceId', at),
    customerId: text(o, 'customerId', at),
    bban: text(o, 'bban', at),
    iban: text(o, 'iban', at),
    currency: text(o, 'currency', at),
    name: text(o, 'name', at),
    product: text(o, 'product', at),
    cashAccountType: text(o, 'cashAccountType', at),
    creditLineMinor: amount(o, 'creditLimit', at).minor,
    balanceMinor: amount(o, 'balance', at).minor,
    status: oneOf(o, 'accountStatus', ACCOUNT_STATUSES, at),
  };
}

export function aisAccountFromWire(value: unknown, at: string): AisAccount {
  const o = object(value, at);
  return {
    ...accountFromWire(o, at),
    ownerName: text(o, 'ownerName', at),
    ownerType: oneOf(o, 'ownerType', CUSTOMER_TYPES, at),
  };
}

export function cardAccountToWire(c: AisCardAccount): Json {
  return {
    resourceId: c.id,
    customerId: c.customerId,
    maskedPan: c.maskedPan,
    name: c.name,
    product: c.product,
    currency: c.currency,
    creditLimit: wireAmount(c.creditLimitMinor, c.currency),
    details: c.body,
    ownerName: c.ownerName,
    ownerType: c.ownerType,
  };
}

export function cardAccountFromWire(value: unknown, at: string): AisCardAccount {
  const o = object(value, at);
  return {
    id: text(o, 'resourceId', at),
    customerId: text(o, 'customerId', at),
    maskedPan: text(o, 'maskedPan', at),
    name: text(o, 'name', at),
    product: text(o, 'product', at),
    currency: text(o, 'currency', at),
    creditLimitMinor: amount(o, 'creditLimit', at).minor,
    body: object(o['details'], `${at}.details`),
    ownerName: text(o, 'ownerName', at),
    ownerType: oneOf(o, 'ownerType', CUSTOMER_TYPES, at),
  };
}

export function transactionToWire(t: SandboxTransaction & { bulk?: boolean }): Json {
  return {
    transactionId: t.id,
    entryReference: t.seq,
    bookingDate: t.bookingDate,
    valueDate: t.valueDate,
    transactionAmount: wireAmount(t.amountMinor, t.currency),
    remittanceInformationUnstructured: t.remittance,
    creditorName: t.creditorName,
    creditorAccount: { iban: t.creditorIban, bban: t.creditorBban },
    debtorName: t.debtorName,
    debtorAccount: { iban: t.debtorIban, bban: t.debtorBban },
    bankTransactionCode: t.bankTransactionCode,
    ultimateDebtor: t.ultimateDebtor,
    ultimateCreditor: t.ultimateCreditor,
    purposeCode: t.purposeCode,
    endToEndId: t.endToEndId,
    ...(t.paymentId === undefined ? {} : { paymentId: t.paymentId }),
    batchIndicator: t.bulk ?? false,
  };
}

/** A transaction of the account `accountId` (the contract's transactions carry no account id: the path has it). */
export function transactionFromWire(value: unknown, accountId: string, at = 'transaction'): AisTransaction {
  const o = object(value, at);
  const money = amount(o, 'transactionAmount', at);
  const creditor = object(o['creditorAccount'], `${at}.creditorAccount`);
  const debtor = object(o['debtorAccount'], `${at}.debtorAccount`);
  return {
    id: text(o, 'transactionId', at),
    accountId,
    seq: integer(o, 'entryReference', at),
    amountMinor: money.minor,
    currency: money.currency,
    bookingDate: date(o, 'bookingDate', at),
    valueDate: date(o, 'valueDate', at),
    remittance: text(o, 'remittanceInformationUnstructured', at),
    creditorName: text(o, 'creditorName', at),
    creditorIban: text(creditor, 'iban', `${at}.creditorAccount`),
    creditorBban: text(creditor, 'bban', `${at}.creditorAccount`),
    debtorName: text(o, 'debtorName', at),
    debtorIban: text(debtor, 'iban', `${at}.debtorAccount`),
    debtorBban: text(debtor, 'bban', `${at}.debtorAccount`),
    bankTransactionCode: text(o, 'bankTransactionCode', at),
    ultimateDebtor: text(o, 'ultimateDebtor', at),
    ultimateCreditor: text(o, 'ultimateCreditor', at),
    purposeCode: text(o, 'purposeCode', at),
    paymentId: optionalText(o, 'paymentId', at),
    endToEndId: text(o, 'endToEndId', at),
    bulk: boolean(o, 'batchIndicator', at),
  };
}

export function cardTransactionToWire(t: AisCardTransaction): Json {
  return { cardTransactionId: t.id, entryReference: t.seq, bookingDate: t.bookingDate, details: t.body };
}

export function cardTransactionFromWire(value: unknown, at: string): AisCardTransaction {
  const o = object(value, at);
  return {
    id: text(o, 'cardTransactionId', at),
    seq: integer(o, 'entryReference', at),
    bookingDate: date(o, 'bookingDate', at),
    body: object(o['details'], `${at}.details`),
  };
}

/** A BBAN is digits; an IBAN starts with its country's two letters. */
function accountReference(account: string): { iban: string } | { bban: string } {
  return /^[A-Z]{2}/.test(account) ? { iban: account } : { bban: account };
}

export function pendingPaymentToWire(p: PendingPayment): Json {
  return {
    paymentId: p.id,
    paymentService: p.service,
    paymentProduct: p.product,
    transactionFees: wireAmount(p.feeMinor, p.feeCurrency),
    ...(p.requestedExecutionDate === undefined ? {} : { requestedExecutionDate: p.requestedExecutionDate }),
    payments: p.transfers.map((t) => ({
      entryReference: t.seq,
      instructedAmount: wireAmount(t.amountMinor, t.currency),
      creditorName: t.creditorName,
      creditorAccount: accountReference(t.creditorAccount),
      remittanceInformationUnstructured: t.remittance,
      ultimateDebtor: t.ultimateDebtor,
      purposeCode: t.purposeCode,
      endToEndIdentification: t.endToEndId,
    })),
  };
}

export function pendingPaymentFromWire(value: unknown, at: string): PendingPayment {
  const o = object(value, at);
  const fees = amount(o, 'transactionFees', at);
  return {
    id: text(o, 'paymentId', at),
    service: text(o, 'paymentService', at),
    product: text(o, 'paymentProduct', at),
    feeMinor: fees.minor,
    feeCurrency: fees.currency,
    requestedExecutionDate: optionalDate(o, 'requestedExecutionDate', at),
    transfers: array(o, 'payments', at).map((item, i): TransferToExecute => {
      const where = `${at}.payments[${i}]`;
      const t = object(item, where);
      const money = amount(t, 'instructedAmount', where);
      const creditor = object(t['creditorAccount'], `${where}.creditorAccount`);
      const creditorAccount =
        optionalText(creditor, 'iban', `${where}.creditorAccount`) ??
        text(creditor, 'bban', `${where}.creditorAccount`);
      return {
        seq: integer(t, 'entryReference', where),
        amountMinor: money.minor,
        currency: money.currency,
        creditorName: text(t, 'creditorName', where),
        creditorAccount,
        remittance: text(t, 'remittanceInformationUnstructured', where),
        ultimateDebtor: text(t, 'ultimateDebtor', where),
        purposeCode: text(t, 'purposeCode', where),
        endToEndId: text(t, 'endToEndIdentification', where),
      };
    }),
  };
}

export function paymentOrderToWire(order: PaymentOrder): Json {
  return {
    paymentId: order.paymentId,
    paymentService: order.paymentService,
    paymentProduct: order.paymentProduct,
    initiation: order.initiation,
    transactionFees: wireAmount(order.transactionFees.amountMinor, order.transactionFees.currency),
    ...(order.signerCustomerId === undefined ? {} : { signerCustomerId: order.signerCustomerId }),
    authorisedAt: order.authorisedAt.toISOString(),
  };
}

export function paymentOrderFromWire(value: unknown): PaymentOrder {
  const o = object(value, 'order');
  const fees = amount(o, 'transactionFees', 'order');
  return {
    paymentId: text(o, 'paymentId', 'order'),
    paymentService: oneOf(o, 'paymentService', ['payments', 'bulk-payments', 'periodic-payments'], 'order'),
    paymentProduct: text(o, 'paymentProduct', 'order'),
    initiation: object(o['initiation'], 'order.initiation'),
    transactionFees: { amountMinor: fees.minor, currency: fees.currency },
    signerCustomerId: optionalText(o, 'signerCustomerId', 'order'),
    authorisedAt: dateTime(o, 'authorisedAt', 'order'),
  };
}

export function reportToWire(r: CoreReport): Json {
  return {
    paymentId: r.paymentId,
    transactionStatus: wireStatus(r.transactionStatus),
    ...(r.statusReason === undefined ? {} : { statusReason: wireReason(r.statusReason) }),
    ...(r.entries === undefined
      ? {}
      : {
          entries: r.entries.map((e) => ({
            entry: e.seq,
            transactionStatus: wireStatus(e.status),
            ...(e.statusReason === undefined ? {} : { statusReason: wireReason(e.statusReason) }),
          })),
        }),
    ...(r.executions === undefined
      ? {}
      : {
          executions: r.executions.map((e) => ({
            sequence: e.seq,
            executionDate: e.executionDate,
            transactionStatus: wireStatus(e.status),
            ...(e.statusReason === undefined ? {} : { statusReason: wireReason(e.statusReason) }),
          })),
        }),
    ...(r.nextExecutionDate === undefined ? {} : { nextExecutionDate: r.nextExecutionDate }),
    statusChangedAt: r.at.toISOString(),
  };
}

export function reportFromWire(value: unknown, at = 'report'): CoreReport {
  const o = object(value, at);
  return {
    paymentId: text(o, 'paymentId', at),
    transactionStatus: status(o, 'transactionStatus', at),
    statusReason: reason(o, 'statusReason', at),
    entries:
      o['entries'] === undefined
        ? undefined
        : array(o, 'entries', at).map((item, i) => {
            const where = `${at}.entries[${i}]`;
            const e = object(item, where);
            return {
              seq: integer(e, 'entry', where),
              status: status(e, 'transactionStatus', where),
              statusReason: reason(e, 'statusReason', where),
            };
          }),
    executions:
      o['executions'] === undefined
        ? undefined
        : array(o, 'executions', at).map((item, i) => {
            const where = `${at}.executions[${i}]`;
            const e = object(item, where);
            return {
              seq: integer(e, 'sequence', where),
              executionDate: date(e, 'executionDate', where),
              status: status(e, 'transactionStatus', where),
              statusReason: reason(e, 'statusReason', where),
            };
          }),
    nextExecutionDate: optionalDate(o, 'nextExecutionDate', at),
    at: dateTime(o, 'statusChangedAt', at),
  };
}

/**
 * The body of the server's callback, POST /core/v1/status-reports (`{ "reports": [CoreReport…] }`):
 * its reports, or a ContractViolation naming what is wrong (the server answers that 400).
 */
export function statusReportsFromWire(value: unknown): CoreReport[] {
  const reports = array(object(value, 'body'), 'reports', 'body');
  if (reports.length === 0 || reports.length > CORE_CALLBACK_REPORTS_MAX)
    throw new ContractViolation(`body.reports must hold 1 to ${CORE_CALLBACK_REPORTS_MAX} reports`);
  return reports.map((report, i) => reportFromWire(report, `body.reports[${i}]`));
}
