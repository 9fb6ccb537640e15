/**
 * The platform's own transaction codes (`proprietaryBankTransactionCode`, "R_710"), one per kind of
 * transaction the sandbox books or is given. The platform publishes no table of its codes: R_710 is
 * the one its recorded answers show on a booked card purchase (docs/platform-research.md §8.3); the others are
 * this bank's, in the same form (docs/ais.md, "Transaction codes"). A client treats them as opaque,
 * as Berlin Group's "proprietary … as used within an ASPSP" says.
 */
export const PROPRIETARY_TRANSACTION_CODES = {
  domesticPayment: 'R_600',
  domesticCredit: 'R_601',
  standingOrder: 'R_610',
  crossBorderPayment: 'R_620',
  crossBorderCredit: 'R_621',
  cardPurchase: 'R_710',
  fee: 'R_900',
  other: 'R_999',
} as const;

const CODES = PROPRIETARY_TRANSACTION_CODES;

/**
 * The kind of a transaction, read from its ISO 20022 bank transaction code (Domain-Family-SubFamily):
 * the code the batch run books with (PMNT-ICDT-DMCT, ACMT-MDOP-CHRG, …), or the one a TPP posted
 * with its test data, so that posted data can stand for any kind. A code of another form (a posted
 * `PMNT`), or none, is `other`.
 */
export function proprietaryTransactionCode(bankTransactionCode: string): string {
  const [domain, family, subFamily] = bankTransactionCode.split('-');
  if (subFamily === 'CHRG') return CODES.fee;
  if (domain !== 'PMNT') return CODES.other;
  if (family === 'CCRD' || family === 'DCRD') return CODES.cardPurchase;
  const crossBorder = CROSS_BORDER_SUB_FAMILIES.has(subFamily ?? '');
  if (family === 'ICDT') {
    if (subFamily === 'STDO') return CODES.standingOrder;
    return crossBorder ? CODES.crossBorderPayment : CODES.domesticPayment;
  }
  if (family === 'RCDT') return crossBorder ? CODES.crossBorderCredit : CODES.domesticCredit;
  return CODES.other;
}

/** Credit transfers that leave the country: cross-border (XBCT) and SEPA (ESCT). */
const CROSS_BORDER_SUB_FAMILIES: ReadonlySet<string> = new Set(['XBCT', 'ESCT']);

/** A card transaction is a card purchase unless it was posted with a code of its own. */
export function cardTransactionCode(posted: unknown): string {
  return typeof posted === 'string' && posted !== '' ? posted : CODES.cardPurchase;
}
