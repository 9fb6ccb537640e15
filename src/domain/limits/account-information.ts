/** Limits of account information (docs/ais.md). */

/**
 * spec, Authentication 10: "the history of transactions can be read without SCA for 90 days".
 * Transactions booked more than this many days ago are read only with an SCA at most this old.
 */
export const AIS_HISTORY_WITHOUT_SCA_DAYS = 90;
/**
 * PSD2 RTS article 36(5)(b): without the PSU actively asking (no PSU-IP-Address), an AISP reads an
 * account at most four times a day. Counted per TPP, account and kind of read, per Norwegian day of
 * the bank's clock.
 */
export const AIS_UNATTENDED_READS_PER_DAY = 4;
/** Transactions per page when the TPP gives no limit: a screenful of a statement, a small answer. */
export const AIS_TRANSACTIONS_PAGE_DEFAULT = 100;
/**
 * The most transactions one page returns: about 1 MB of JSON, as the sandbox's listing. A client that
 * wants more follows `_links.next`; each page is one index range, however far it is.
 */
export const AIS_TRANSACTIONS_PAGE_MAX = 1000;
/**
 * Accounts and card accounts one consent page offers, and one consent shares. Each choice is a
 * checkbox whose value (an id of about 30 characters) the form posts back within
 * SCA_FORM_BODY_MAX_BYTES; 50 is more than a person reads on a phone, and a company with more
 * accounts shares them in several consents.
 */
export const AIS_SHAREABLE_ACCOUNTS_MAX = 50;
