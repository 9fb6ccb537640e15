import { TRANSACTION_STATUSES, type TransactionStatus } from '../../domain/transaction-status.js';
import type { CoreReport } from '../../store/core-records.js';

/**
 * A status report as the contract carries it (docs/core-api.yaml, CoreReport), read strictly: a
 * report that is not the contract is refused whole, never half applied.
 */
export function reportOfJson(json: unknown, at: string): CoreReport | string {
  if (!isObject(json)) return `${at} is not an object`;
  const { paymentId, transactionStatus, statusReason, entries, executions, nextExecutionDate, statusChangedAt } = json;
  if (typeof paymentId !== 'string' || paymentId === '' || paymentId.length > 100)
    return `${at}.paymentId must be a text of 1 to 100 characters`;
  if (!isStatus(transactionStatus)) return `${at}.transactionStatus must be an ISO 20022 status`;
  const reason = reasonOf(statusReason, `${at}.statusReason`);
  if (typeof reason === 'object') return reason.problem;
  if (
    statusChangedAt !== undefined &&
    (typeof statusChangedAt !== 'string' || Number.isNaN(Date.parse(statusChangedAt)))
  )
    return `${at}.statusChangedAt must be a date-time`;
  if (
    nextExecutionDate !== undefined &&
    (typeof nextExecutionDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(nextExecutionDate))
  )
    return `${at}.nextExecutionDate must be a date`;
  const entryList: CoreReport['entries'] = [];
  if (entries !== undefined) {
    if (!Array.isArray(entries)) return `${at}.entries must be an array`;
    for (const [i, entry] of entries.entries()) {
      if (
        !isObject(entry) ||
        !Number.isInteger(entry.entry) ||
        (entry.entry as number) < 0 ||
        !isStatus(entry.transactionStatus)
      )
        return `${at}.entries[${i}] must have entry (a whole number) and transactionStatus`;
      const why = reasonOf(entry.statusReason, `${at}.entries[${i}].statusReason`);
      if (typeof why === 'object') return why.problem;
      entryList.push({ seq: entry.entry as number, status: entry.transactionStatus, statusReason: why });
    }
  }
  const executionList: NonNullable<CoreReport['executions']> = [];
  if (executions !== undefined) {
    if (!Array.isArray(executions)) return `${at}.executions must be an array`;
    for (const [i, e] of executions.entries()) {
      if (
        !isObject(e) ||
        !Number.isInteger(e.sequence) ||
        (e.sequence as number) < 1 ||
        typeof e.executionDate !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}$/.test(e.executionDate) ||
        !isStatus(e.transactionStatus)
      )
        return `${at}.executions[${i}] must have sequence (from 1), executionDate (a date) and transactionStatus`;
      const why = reasonOf(e.statusReason, `${at}.executions[${i}].statusReason`);
      if (typeof why === 'object') return why.problem;
      executionList.push({
        seq: e.sequence as number,
        executionDate: e.executionDate,
        status: e.transactionStatus,
        statusReason: why,
      });
    }
  }
  return {
    paymentId,
    transactionStatus,
    statusReason: reason,
    entries: entries === undefined ? undefined : entryList,
    executions: executions === undefined ? undefined : executionList,
    nextExecutionDate: nextExecutionDate as string | undefined,
    at: typeof statusChangedAt === 'string' ? new Date(statusChangedAt) : new Date(),
  };
}

/** A report as the contract carries it. */
export function reportToJson(report: CoreReport): Record<string, unknown> {
  return {
    paymentId: report.paymentId,
    transactionStatus: report.transactionStatus,
    ...(report.statusReason === undefined ? {} : { statusReason: reasonToJson(report.statusReason) }),
    ...(report.entries === undefined
      ? {}
      : {
          entries: report.entries.map((e) => ({
            entry: e.seq,
            transactionStatus: e.status,
            ...(e.statusReason === undefined ? {} : { statusReason: reasonToJson(e.statusReason) }),
          })),
        }),
    ...(report.executions === undefined
      ? {}
      : {
          executions: report.executions.map((e) => ({
            sequence: e.seq,
            executionDate: e.executionDate,
            transactionStatus: e.status,
            ...(e.statusReason === undefined ? {} : { statusReason: reasonToJson(e.statusReason) }),
          })),
        }),
    ...(report.nextExecutionDate === undefined ? {} : { nextExecutionDate: report.nextExecutionDate }),
    statusChangedAt: report.at.toISOString(),
  };
}

/** The server's reasons are texts that start with their ISO 20022 code ("AM04 insufficient funds…"). */
function reasonToJson(reason: string): { code: string; text: string } {
  const match = /^([A-Z0-9]{4})\s+(.*)$/s.exec(reason);
  return match === null ? { code: 'NARR', text: reason } : { code: match[1]!, text: match[2]! };
}

function reasonOf(json: unknown, at: string): string | undefined | { problem: string } {
  if (json === undefined) return undefined;
  if (!isObject(json) || typeof json.code !== 'string' || !/^[A-Z0-9]{4}$/.test(json.code))
    return { problem: `${at} must have code, an ISO 20022 reason code of 4 letters and digits` };
  const text = json.text === undefined ? '' : json.text;
  if (typeof text !== 'string' || text.length > 500)
    return { problem: `${at}.text must be a text of at most 500 characters` };
  return text === '' ? json.code : `${json.code} ${text}`;
}

function isStatus(value: unknown): value is TransactionStatus {
  return typeof value === 'string' && (TRANSACTION_STATUSES as readonly string[]).includes(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
