import currencyCodes from 'currency-codes';

/** spec: the Currency list, exactly as the specification gives it. */
export const CURRENCIES = [
  'AED',
  'AFN',
  'ALL',
  'AMD',
  'ANG',
  'AOA',
  'ARS',
  'AUD',
  'AWG',
  'AZN',
  'BAM',
  'BBD',
  'BDT',
  'BGN',
  'BHD',
  'BIF',
  'BMD',
  'BND',
  'BOB',
  'BRL',
  'BSD',
  'BTN',
  'BWP',
  'BYR',
  'BZD',
  'CAD',
  'CDF',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CRC',
  'CUC',
  'CUP',
  'CVE',
  'CZK',
  'DJF',
  'DKK',
  'DOP',
  'DZD',
  'EGP',
  'ERN',
  'ETB',
  'EUR',
  'FJD',
  'FKP',
  'GBP',
  'GEL',
  'GGP',
  'GHS',
  'GIP',
  'GMD',
  'GNF',
  'GTQ',
  'GYD',
  'HKD',
  'HNL',
  'HRK',
  'HTG',
  'HUF',
  'IDR',
  'ILS',
  'IMP',
  'INR',
  'IQD',
  'IRR',
  'ISK',
  'JEP',
  'JMD',
  'JOD',
  'JPY',
  'KES',
  'KGS',
  'KHR',
  'KMF',
  'KPW',
  'KRW',
  'KWD',
  'KYD',
  'KZT',
  'LAK',
  'LBP',
  'LKR',
  'LRD',
  'LSL',
  'LYD',
  'MAD',
  'MDL',
  'MGA',
  'MKD',
  'MMK',
  'MNT',
  'MOP',
  'MRO',
  'MUR',
  'MVR',
  'MWK',
  'MXN',
  'MYR',
  'MZN',
  'NAD',
  'NGN',
  'NIO',
  'NOK',
  'NPR',
  'NZD',
  'OMR',
  'PAB',
  'PEN',
  'PGK',
  'PHP',
  'PKR',
  'PLN',
  'PYG',
  'QAR',
  'RON',
  'RSD',
  'RUB',
  'RWF',
  'SAR',
  'SBD',
  'SCR',
  'SDG',
  'SEK',
  'SGD',
  'SHP',
  'SLL',
  'SOS',
  'SPL',
  'SRD',
  'STD',
  'SVC',
  'SYP',
  'SZL',
  'THB',
  'TJS',
  'TMT',
  'TND',
  'TOP',
  'TRY',
  'TTD',
  'TVD',
  'TWD',
  'TZS',
  'UAH',
  'UGX',
  'USD',
  'UYU',
  'UZS',
  'VEF',
  'VND',
  'VUV',
  'WST',
  'XAF',
  'XCD',
  'XDR',
  'XOF',
  'XPF',
  'YER',
  'ZAR',
  'ZMW',
  'ZWD',
] as const;

export type Currency = (typeof CURRENCIES)[number];

const CURRENCY_SET: ReadonlySet<string> = new Set(CURRENCIES);

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && CURRENCY_SET.has(value);
}

/**
 * Codes of the list outside ISO 4217, each with the currency it is pegged to, whose minor units it
 * takes: the Guernsey, Manx and Jersey pounds (at par with GBP), the Tuvalu dollar (at par with AUD)
 * and the Seborga luigino (USD 6, in 100 centesimi, like the dollar's cents).
 */
const PEGGED_OUTSIDE_ISO: Readonly<Record<string, Currency>> = {
  GGP: 'GBP',
  IMP: 'GBP',
  JEP: 'GBP',
  TVD: 'AUD',
  SPL: 'USD',
};

/**
 * Withdrawn codes the list still names, which the ISO 4217 data (currency-codes, 2024) no longer has,
 * with the minor units ISO 4217 gave them while they were current: an amount in them is in the old
 * unit, so BYR keeps 0 although its successor BYN has 2.
 */
const WITHDRAWN_MINOR_UNITS: Readonly<Record<string, number>> = {
  BYR: 0,
  HRK: 2,
  MRO: 2,
  SLL: 2,
  STD: 2,
  VEF: 2,
  ZWD: 2,
};

/** ISO 4217 minor units from the data; XDR, whose minor units ISO gives as "N.A.", has 0 there. */
function isoMinorUnits(code: string): number | undefined {
  return currencyCodes.code(code)?.digits;
}

const MINOR_UNITS: ReadonlyMap<Currency, number> = new Map(
  CURRENCIES.map((code) => {
    const anchor = PEGGED_OUTSIDE_ISO[code];
    const digits =
      isoMinorUnits(code) ?? WITHDRAWN_MINOR_UNITS[code] ?? (anchor === undefined ? undefined : isoMinorUnits(anchor));
    // A currency of the list without minor units would be a gap in this table: fail at start, not at a payment.
    if (digits === undefined) throw new Error(`no ISO 4217 minor units for ${code}`);
    return [code, digits];
  }),
);

/** ISO 4217 minor units (number of fraction digits) of a currency of the specification's list. */
export function minorUnitsOf(currency: Currency): number {
  return MINOR_UNITS.get(currency)!;
}
