import type { Problem } from '../api-error.js';
import { accountKey, accountProblems } from '../account-reference.js';
import { domesticBulkFees } from '../fee-schedule.js';
import { isValidKid } from '../kid.js';
import { readAmount } from './amount-field.js';
import type { ProductContext, ProductValidation } from './cross-border-payment.js';
import { arrayAt, has, isObject, objectAt, stringAt } from './field-reader.js';
import { readExecutionDate } from './product-steps.js';
import { type Transfer, duplicateKey } from './payment.js';

/** Structured references of these types (or of no type) are KID/OCR numbers and are checked as such. */
const KID_REFERENCE_TYPES = new Set(['SCOR', 'KID', 'OCR']);

/**
 * The rules of endpoint 3 that a JSON schema cannot state: domestic transfers are in NOK between
 * Norwegian accounts (BBAN with MOD11), structured or unstructured remittance but never both, KID
 * check digits (KID_INVALID), execution date, and no entry equal to another of the same bulk.
 */
export function validateDomesticBulkPayment(body: unknown, context: ProductContext): ProductValidation {
  const problems: Problem[] = [];
  const debtorAccount = objectAt(body, 'debtorAccount');
  if (debtorAccount !== undefined) {
    problems.push(...accountProblems(debtorAccount, '$.debtorAccount', { norwegian: true, bbanOrIban: false }));
    requireNok(stringAt(debtorAccount, 'currency'), '$.debtorAccount.currency', problems);
  }
  const executionDate = readExecutionDate(body, context.today, problems);
  const debtor = { bban: stringAt(debtorAccount, 'bban'), iban: undefined, currency: 'NOK' };

  const transfers: Transfer[] = [];
  const seen = new Map<string, string>();
  (arrayAt(body, 'payments') ?? []).forEach((entry, index) => {
    const path = `$.payments[${index}]`;
    if (!isObject(entry)) return;
    const amount = readAmount(entry, 'instructedAmount', `${path}.instructedAmount`, problems);
    requireNok(
      stringAt(objectAt(entry, 'instructedAmount'), 'currency'),
      `${path}.instructedAmount.currency`,
      problems,
    );
    const creditorAccount = objectAt(entry, 'creditorAccount');
    if (creditorAccount !== undefined) {
      problems.push(
        ...accountProblems({ bban: creditorAccount.bban }, `${path}.creditorAccount`, {
          norwegian: true,
          bbanOrIban: false,
        }),
      );
      requireNok(stringAt(creditorAccount, 'currency'), `${path}.creditorAccount.currency`, problems);
    }
    const remittance = remittanceOf(entry, path, problems);
    if (amount === undefined || creditorAccount === undefined || remittance === undefined) return;
    const creditor = accountKey({ bban: stringAt(creditorAccount, 'bban') });
    const key = duplicateKey({ debtor: accountKey(debtor), creditor, amount, executionDate, remittance });
    const twin = seen.get(key);
    if (twin !== undefined) {
      problems.push({
        code: 'FORMAT_ERROR',
        path,
        text: `${path} is equal to ${twin} (same creditor, amount, date and remittance); a bulk payment must not pay the same thing twice`,
      });
    }
    seen.set(key, path);
    transfers.push({
      amount,
      creditorName: stringAt(entry, 'creditorName') ?? '',
      creditorAccount: creditor,
      duplicateKey: key,
      path,
    });
  });

  if (problems.length > 0 || debtorAccount === undefined) return { problems, payment: undefined };
  return {
    problems,
    payment: { debtor, requestedExecutionDate: executionDate, transfers, fees: domesticBulkFees(), warnings: [] },
  };
}

export function requireNok(currency: string | undefined, path: string, problems: Problem[]): void {
  if (currency !== undefined && currency !== 'NOK') {
    problems.push({
      code: 'FORMAT_ERROR',
      path,
      text: `${path} must be NOK: domestic credit transfers are made in kroner between kroner accounts (got '${currency}')`,
    });
  }
}

/**
 * spec: an entry sets structured or unstructured remittance information, never both; the array
 * replaces the single structured field, so the two are not given together either. A single domestic
 * payment (NDCT, Straks) has the same rule, for the whole body (`subject` names it). Returns the
 * remittance as text for duplicate detection, or undefined when it is not usable.
 */
export function remittanceOf(
  entry: Record<string, unknown>,
  path: string,
  problems: Problem[],
  subject = 'an entry',
): string | undefined {
  const unstructured = stringAt(entry, 'remittanceInformationUnstructured');
  const single = objectAt(entry, 'remittanceInformationStructured');
  const array = arrayAt(entry, 'remittanceInformationStructuredArray');
  const before = problems.length;
  if (has(entry, 'remittanceInformationUnstructured') && (single !== undefined || array !== undefined)) {
    problems.push({
      code: 'FORMAT_ERROR',
      path,
      text: `${path} sets both unstructured and structured remittance information; ${subject} carries one or the other`,
    });
  }
  if (single !== undefined && array !== undefined) {
    problems.push({
      code: 'FORMAT_ERROR',
      path: `${path}.remittanceInformationStructured`,
      text: `${path} sets both remittanceInformationStructured and remittanceInformationStructuredArray; use only the array, which replaces the single field`,
    });
  }
  const structured: [Record<string, unknown>, string][] = [];
  if (single !== undefined) structured.push([single, `${path}.remittanceInformationStructured`]);
  array?.forEach((item, i) => {
    if (isObject(item)) structured.push([item, `${path}.remittanceInformationStructuredArray[${i}]`]);
  });
  for (const [item, itemPath] of structured) {
    const reference = stringAt(item, 'reference');
    const type = stringAt(item, 'referenceType');
    if (
      reference !== undefined &&
      reference !== '' &&
      (type === undefined || KID_REFERENCE_TYPES.has(type.toUpperCase())) &&
      !isValidKid(reference)
    ) {
      problems.push({
        code: 'KID_INVALID',
        path: `${itemPath}.reference`,
        text: `${itemPath}.reference '${reference}' is not a valid KID: 2 to 25 digits whose last digit checks the others by MOD10 or MOD11`,
      });
    }
  }
  if (problems.length > before) return undefined;
  return (
    unstructured ??
    structured
      .map(([item]) => `${stringAt(item, 'referenceType') ?? ''}:${stringAt(item, 'reference') ?? ''}`)
      .join(';')
  );
}
