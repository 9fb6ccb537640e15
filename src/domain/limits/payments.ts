/**
 * Limits on payments: the specification's field lengths (its field tables and Limits), bulk entries,
 * execution dates, logical duplicates, and the reference rates fees are converted with (docs/fees.md).
 */

/** spec: creditorName, debtorName, ultimateDebtor. */
export const NAME_MAX_LENGTH = 70;
/** spec: creditorAddress.street. */
export const STREET_MAX_LENGTH = 70;
/** spec: bban. */
export const BBAN_MAX_LENGTH = 30;
/** spec: iban. */
export const IBAN_MAX_LENGTH = 34;
/** spec: remittanceInformationUnstructured, 1 to 140. */
export const REMITTANCE_UNSTRUCTURED_MAX_LENGTH = 140;
/** spec: regulatoryReportingInformation. */
export const REGULATORY_REPORTING_INFORMATION_MAX_LENGTH = 140;
/** spec: paymentInformationId, 0 to 35. */
export const PAYMENT_INFORMATION_ID_MAX_LENGTH = 35;
/** spec: reference, referenceType, referenceIssuer of structured remittance, 1 to 35 each. */
export const STRUCTURED_REMITTANCE_FIELD_MAX_LENGTH = 35;
/** spec: amounts have precision 18 and scale 5 by contract. */
export const AMOUNT_PRECISION = 18;
export const AMOUNT_SCALE = 5;

/**
 * The specification leaves these address parts unbounded; ISO 20022 (pain.001), into which the bank
 * turns the payment, allows BldgNb and PstCd 16 characters and TwnNm 35.
 */
export const BUILDING_NUMBER_MAX_LENGTH = 16;
export const POSTAL_CODE_MAX_LENGTH = 16;
export const CITY_MAX_LENGTH = 35;

/**
 * Entries of one bulk payment. 1 000 covers the monthly payroll of a company of a thousand people
 * in one SCA, bounds a request to about 1 MB and the PSU's signing page to a list one can still read;
 * larger batches belong in the file channels (ISO 20022 pain.001) banks offer for them.
 */
export const MAX_BULK_ENTRIES = 1000;

/** remittanceInformationStructuredArray entries: the platform's examples use one or two (KID plus invoice). */
export const MAX_STRUCTURED_REMITTANCE_ENTRIES = 10;

/** requestedExecutionDate at most this many days ahead: banks keep future-dated payments for a year. */
export const MAX_EXECUTION_DAYS_AHEAD = 365;

/**
 * A payment equal to one of the same PSU created within this window is a logical duplicate. 24 hours
 * catches a double submission and a retry with a new X-Request-ID, and lets a PSU pay the same
 * creditor the same amount again the next day (a weekly rent, say).
 */
export const LOGICAL_DUPLICATE_WINDOW_HOURS = 24;

/**
 * The days the logical-duplicate look-up probes at most: those of the window, and the day after the
 * payment's (src/store/duplicate-hash.ts). Its index is probed once for each transfer on each day, so
 * a window that touched more days would cost more probes, not a wider scan; a longer span is a bug.
 */
export const LOGICAL_DUPLICATE_MAX_DAYS = Math.ceil(LOGICAL_DUPLICATE_WINDOW_HOURS / 24) + 2;

/**
 * Fraction digits of one reference rate. Each rate keeps the digits it is written with (no common
 * scale), so a withdrawn currency keeps its value per old unit: the smallest rate of the sandbox
 * table, ZWD at about NOK 3.1 × 10^-41, needs 44 fraction digits for 4 significant ones. 48 bounds
 * the digits read from REFERENCE_RATES and the size of the integers one conversion multiplies.
 */
export const REFERENCE_RATE_MAX_FRACTION_DIGITS = 48;
/** Digits before the point of one reference rate: no currency is worth NOK 10^12 per unit. */
export const REFERENCE_RATE_MAX_WHOLE_DIGITS = 12;

/**
 * endToEndIdentification (release 1.21.18, on the domestic and SEPA single payments): Berlin Group's
 * Max35Text, the ISO 20022 EndToEndId the bank passes on to the creditor's bank unchanged.
 */
export const END_TO_END_IDENTIFICATION_MAX_LENGTH = 35;

/**
 * The most one Straks (instant) payment may be: NOK 500 000, the cap of the instant rail as the
 * platform's banks state it to their customers (docs/decisions/0217; Luster Sparebank: "up to NOK 500
 * 000"); a larger amount goes as a norwegian-domestic-credit-transfers payment. KLP's NOK 10 000 is
 * one bank's own fraud limit, not the rail's.
 */
export const STRAKS_MAX_AMOUNT_NOK_MINOR = 50_000_000n;

/**
 * Authorisations (or cancellation authorisations) one payment or basket can have. Each start is a new
 * link, for one that expired or was used; a link lives 15 minutes and a payment waits 60 for its SCA,
 * so ten covers every honest retry, and bounds the list GET …/authorisations reads.
 */
export const MAX_AUTHORISATIONS_PER_RESOURCE = 10;
