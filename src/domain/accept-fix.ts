import type { TppMessage } from './api-error.js';

/**
 * Published future breaking changes (specification, Versioning 3-5). A TPP switches one on early with
 * x-accept-fix; from its default date it is on for everyone and the header no longer matters.
 * The specification names the changes; their dates are this bank's (docs/accept-fix.md).
 */
export interface AcceptFix {
  name: string;
  aliases: readonly string[];
  description: string;
  /** YYYY-MM-DD the change was published. */
  announced: string;
  /** YYYY-MM-DD from which it is the default; null while no date is set. */
  defaultFrom: string | null;
}

export const ACCEPT_FIXES: readonly AcceptFix[] = [
  {
    name: 'amount-as-string',
    aliases: [],
    announced: '2019-12-01',
    defaultFrom: '2020-03-01',
    description: 'Amounts are serialized as strings.',
  },
  {
    name: 'cardaccount-switch-originalamount-and-transactionamount',
    aliases: [],
    announced: '2020-11-15',
    defaultFrom: '2021-03-31',
    description:
      'Card account transactions: transactionAmount and originalAmount are switched to their correct meaning.',
  },
  {
    name: 'longer-name',
    aliases: ['longer-names'],
    announced: '2026-10-01',
    defaultFrom: '2027-01-01',
    description:
      'The name field of account details and card account details is extended from 35 to 70 characters; default three months after announcement.',
  },
  {
    name: 'cash-account-type-iso',
    aliases: [],
    announced: '2026-09-15',
    defaultFrom: '2027-03-15',
    description: 'cashAccountType becomes an ISO 20022 ExternalCashAccountType1Code (CACC, SVGS, ...).',
  },
  {
    name: 'bank-transaction-code-iso',
    aliases: [],
    announced: '2026-10-15',
    defaultFrom: '2027-04-15',
    description: 'bankTransactionCode becomes the ISO 20022 Domain-Family-SubFamily code (PMNT-RCDT-DMCT).',
  },
  {
    name: 'batch-transactions',
    aliases: [],
    announced: '2026-11-01',
    defaultFrom: null,
    description: 'Transactions the bank booked as one batch are returned with their batch details.',
  },
];

const BY_NAME = new Map(ACCEPT_FIXES.flatMap((fix) => [fix.name, ...fix.aliases].map((name) => [name, fix] as const)));

export interface AcceptedFixes {
  /** Names of the changes in force for this request: asked for, or already default. */
  active: ReadonlySet<string>;
  /** WARNING messages for names the bank does not know. */
  warnings: TppMessage[];
}

/** Reads x-accept-fix (`longer-name, cash-account-type-iso`, quotes tolerated) against the registry on a date. */
export function acceptedFixes(header: string | undefined, today: string): AcceptedFixes {
  const active = new Set(
    ACCEPT_FIXES.filter((fix) => fix.defaultFrom !== null && fix.defaultFrom <= today).map((fix) => fix.name),
  );
  const warnings: TppMessage[] = [];
  for (const raw of (header ?? '').split(',')) {
    const name = raw.trim().replace(/^"|"$/g, '').trim().toLowerCase();
    if (name === '') continue;
    const fix = BY_NAME.get(name);
    if (fix === undefined) {
      warnings.push({
        category: 'WARNING',
        code: 'BAD_REQUEST',
        path: 'header:x-accept-fix',
        text: `x-accept-fix '${name}' is not a published change of this bank and has no effect; the published changes are ${ACCEPT_FIXES.map((f) => f.name).join(', ')}`,
      });
    } else {
      active.add(fix.name);
    }
  }
  return { active, warnings };
}
