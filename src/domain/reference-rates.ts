import { type Currency, isCurrency, minorUnitsOf } from './currency.js';
import { REFERENCE_RATE_MAX_FRACTION_DIGITS, REFERENCE_RATE_MAX_WHOLE_DIGITS } from './limits.js';

const NOK_MINOR_PER_UNIT = 100n;

/**
 * A rate as written: `units / scale` kroner per unit, scale being 10 to the rate's fraction digits. Each rate keeps its
 * own scale, so a rate of 44 fraction digits (ZWD) and one of 2 (EUR) are both exact; no float anywhere.
 */
interface Rate {
  units: bigint;
  scale: bigint;
}

const RATE_TEXT = new RegExp(
  `^(\\d{1,${REFERENCE_RATE_MAX_WHOLE_DIGITS}})(?:\\.(\\d{1,${REFERENCE_RATE_MAX_FRACTION_DIGITS}}))?$`,
);

/**
 * The bank's reference rates: kroner for one unit of a currency. The sandbox's table is indicative
 * (docs/fees.md) and can be replaced with REFERENCE_RATES; production loads the bank's own.
 *
 * It has every currency of the specification's list. The first block is the table as it was; the
 * rest is derived from it with about late-2025 market or official rates, 4 significant digits:
 * floating currencies and those fixed to the dollar from USD 10.80, those fixed to the euro from
 * EUR 11.70, and currencies at par with another take that one's rate as it is written. A withdrawn
 * code is priced per OLD unit: its successor's rate divided by the redenomination factor.
 */
export const SANDBOX_REFERENCE_RATES: Readonly<Record<string, string>> = {
  NOK: '1',
  EUR: '11.70',
  USD: '10.80',
  GBP: '13.90',
  SEK: '1.02',
  DKK: '1.57',
  CHF: '12.40',
  ISK: '0.083',
  PLN: '2.70',
  CZK: '0.47',
  HUF: '0.030',
  CAD: '7.80',
  AUD: '7.10',
  NZD: '6.40',
  JPY: '0.071',
  CNY: '1.50',
  HKD: '1.39',
  SGD: '8.20',
  INR: '0.13',
  ZAR: '0.60',
  TRY: '0.32',
  THB: '0.31',
  KWD: '35.20',
  BHD: '28.70',
  JOD: '15.20',
  OMR: '28.10',
  TND: '3.50',
  KRW: '0.0078',
  CLP: '0.011',

  // Floating, and managed rates published by their central bank: NOK 10.80 over units per USD.
  AFN: '0.1624', // 66.5 per USD
  ALL: '0.1293', // 83.5 per USD
  AMD: '0.02820', // 383 per USD
  AOA: '0.01184', // 912 per USD
  ARS: '0.007448', // 1450 per USD
  BDT: '0.08852', // 122 per USD
  BIF: '0.003649', // 2960 per USD
  BRL: '2.019', // 5.35 per USD
  BWP: '0.8060', // 13.4 per USD
  CDF: '0.004800', // 2250 per USD
  COP: '0.002842', // 3800 per USD
  CRC: '0.02160', // 500 per USD
  DOP: '0.1701', // 63.5 per USD
  DZD: '0.08308', // 130 per USD
  EGP: '0.2274', // 47.5 per USD
  ETB: '0.07200', // 150 per USD
  FJD: '4.758', // 2.27 per USD
  GEL: '4.000', // 2.70 per USD
  GHS: '0.9818', // 11.0 per USD
  GMD: '0.1490', // 72.5 per USD
  GNF: '0.001244', // 8680 per USD
  GTQ: '1.410', // 7.66 per USD
  GYD: '0.05167', // 209 per USD
  HNL: '0.4106', // 26.3 per USD
  HTG: '0.08244', // 131 per USD
  IDR: '0.0006486', // 16650 per USD
  ILS: '3.323', // 3.25 per USD
  IQD: '0.008244', // 1310 per USD
  IRR: '0.0002571', // 42000 per USD, the central bank's official rate
  JMD: '0.06750', // 160 per USD
  KES: '0.08359', // 129.2 per USD
  KGS: '0.1235', // 87.45 per USD
  KHR: '0.002693', // 4010 per USD
  KPW: '0.01200', // 900 per USD, official
  KZT: '0.02077', // 520 per USD
  LAK: '0.0004977', // 21700 per USD
  LBP: '0.0001207', // 89500 per USD
  LKR: '0.03564', // 303 per USD
  LRD: '0.06000', // 180 per USD
  LYD: '1.982', // 5.45 per USD
  MAD: '1.168', // 9.25 per USD
  MDL: '0.6353', // 17.0 per USD
  MGA: '0.002400', // 4500 per USD
  MMK: '0.005143', // 2100 per USD
  MNT: '0.003017', // 3580 per USD
  MUR: '0.2348', // 46 per USD
  MVR: '0.7004', // 15.42 per USD
  MWK: '0.006168', // 1751 per USD
  MXN: '0.5870', // 18.4 per USD
  MYR: '2.602', // 4.15 per USD
  MZN: '0.1690', // 63.9 per USD
  NGN: '0.007448', // 1450 per USD
  NIO: '0.2951', // 36.6 per USD
  PEN: '3.195', // 3.38 per USD
  PGK: '2.541', // 4.25 per USD
  PHP: '0.1831', // 59 per USD
  PKR: '0.03843', // 281 per USD
  PYG: '0.001521', // 7100 per USD
  RUB: '0.1350', // 80 per USD
  RWF: '0.007448', // 1450 per USD
  SBD: '1.317', // 8.2 per USD
  SCR: '0.7606', // 14.2 per USD
  SDG: '0.01800', // 600 per USD, official
  SOS: '0.01891', // 571 per USD
  SRD: '0.2805', // 38.5 per USD
  SYP: '0.0009818', // 11000 per USD, official
  TJS: '1.161', // 9.3 per USD
  TOP: '4.500', // 2.40 per USD
  TTD: '1.593', // 6.78 per USD
  TWD: '0.3484', // 31 per USD
  TZS: '0.004408', // 2450 per USD
  UAH: '0.2571', // 42 per USD
  UGX: '0.003086', // 3500 per USD
  UYU: '0.2700', // 40 per USD
  UZS: '0.0009000', // 12000 per USD
  VND: '0.0004106', // 26300 per USD
  VUV: '0.09000', // 120 per USD
  WST: '3.927', // 2.75 per USD
  XDR: '14.80', // USD 1.37 per SDR, the IMF's basket
  YER: '0.006667', // 1620 per USD, Aden
  ZMW: '0.4696', // 23 per USD

  // Fixed to the US dollar: NOK 10.80 over the fixed units per USD.
  AED: '2.941', // 3.6725 per USD
  AWG: '6.034', // 1.79 per USD
  AZN: '6.353', // 1.70 per USD
  BBD: '5.400', // 2 per USD
  BOB: '1.552', // 6.96 per USD
  BZD: '5.400', // 2 per USD
  CUP: '0.4500', // 24 per USD, the central bank's official rate
  DJF: '0.06077', // 177.721 per USD
  ERN: '0.7200', // 15 per USD
  KYD: '12.96', // USD 1.20 per KYD
  QAR: '2.967', // 3.64 per USD
  SAR: '2.880', // 3.75 per USD
  SVC: '1.234', // 8.75 per USD
  TMT: '3.086', // 3.5 per USD
  XCD: '4.000', // 2.70 per USD

  // Fixed to the euro: NOK 11.70 over the fixed units per EUR.
  BAM: '5.982', // 1.95583 per EUR
  BGN: '5.982', // 1.95583 per EUR
  CVE: '0.1061', // 110.265 per EUR
  KMF: '0.02378', // 491.96775 per EUR
  MKD: '0.1902', // 61.5 per EUR (managed)
  RON: '2.303', // 5.08 per EUR (floating; the euro is its reference)
  RSD: '0.09983', // 117.2 per EUR (managed)
  XAF: '0.01784', // 655.957 per EUR
  XOF: '0.01784', // 655.957 per EUR
  XPF: '0.09805', // 119.33174 per EUR (1 000 XPF = 8.38 EUR)

  // Fixed to another currency of this table.
  MOP: '1.350', // 1.03 per HKD
  NPR: '0.08125', // 1.6 per INR

  // At par with another currency: its rate, as it is written there.
  GGP: '13.90',
  IMP: '13.90',
  JEP: '13.90',
  FKP: '13.90',
  GIP: '13.90',
  SHP: '13.90', // GBP
  TVD: '7.10', // AUD
  BMD: '10.80',
  BSD: '10.80',
  PAB: '10.80', // USD
  BTN: '0.13', // INR
  LSL: '0.60',
  NAD: '0.60',
  SZL: '0.60', // ZAR
  BND: '8.20', // SGD

  // Outside ISO 4217 and not at par: the Seborga luigino, fixed at USD 6.
  SPL: '64.80',

  // Withdrawn codes, per old unit: the successor's rate over the redenomination factor.
  ANG: '6.034', // 2025: XCG at par, 1.79 per USD
  BYR: '0.00036', // 2016: 10 000 BYR = 1 BYN; BYN 3.00 per USD
  CUC: '10.80', // 2021: 1 CUC = 24 CUP; CUP 24 per USD
  HRK: '1.553', // 2023: 7.53450 HRK = 1 EUR
  MRO: '0.027', // 2018: 10 MRO = 1 MRU; MRU 40.0 per USD
  SLL: '0.0004696', // 2022: 1 000 SLL = 1 SLE; SLE 23.0 per USD
  STD: '0.0004776', // 2018: 1 000 STD = 1 STN; STN 24.5 per EUR (fixed)
  // 2018: 100 000 VEF = 1 VES; 2021: 1 000 000 VES = 1 bolívar digital, 230 per USD (quoted as VES).
  VEF: '0.0000000000004696',
  // 2006–2009: 10^25 ZWD = 1 ZWL (through ZWN and ZWR); 2015: ZWL demonetised at 35 × 10^15 per USD.
  // The ZWL of 2019 and the ZWG of 2024 are new currencies: no ZWD unit was ever converted into them.
  ZWD: '0.00000000000000000000000000000000000000003086',
};

export class ReferenceRates {
  private readonly rates: ReadonlyMap<Currency, Rate>;

  constructor(table: Readonly<Record<string, string>>) {
    const rates = new Map<Currency, Rate>();
    for (const [code, text] of Object.entries(table)) {
      if (!isCurrency(code))
        throw new Error(`reference rate for '${code}', which is not a currency of the specification`);
      const match = RATE_TEXT.exec(text);
      if (match === null) {
        throw new Error(
          `reference rate for ${code} must be a decimal with at most ${REFERENCE_RATE_MAX_WHOLE_DIGITS} digits before the point and ${REFERENCE_RATE_MAX_FRACTION_DIGITS} after it (got '${text}')`,
        );
      }
      const fraction = match[2] ?? '';
      const rate = { units: BigInt(match[1]! + fraction), scale: 10n ** BigInt(fraction.length) };
      if (rate.units === 0n) throw new Error(`reference rate for ${code} must be more than zero`);
      rates.set(code, rate);
    }
    rates.set('NOK', { units: 1n, scale: 1n });
    this.rates = rates;
  }

  /** Parses `EUR=11.70,USD=10.80` (the REFERENCE_RATES variable). */
  static parse(text: string): ReferenceRates {
    const table: Record<string, string> = {};
    for (const pair of text
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')) {
      const parts = pair.split('=').map((p) => p.trim());
      const [code, rate] = parts;
      if (parts.length !== 2 || code === undefined || rate === undefined || code === '')
        throw new Error(`'${pair}' is not of the form CODE=rate`);
      if (Object.hasOwn(table, code.toUpperCase())) throw new Error(`${code.toUpperCase()} is given twice`);
      table[code.toUpperCase()] = rate;
    }
    return new ReferenceRates(table);
  }

  has(currency: Currency): boolean {
    return this.rates.has(currency);
  }

  /** The amount in NOK minor units (øre), rounded half up; undefined without a rate for the currency. */
  toNokMinor(minor: bigint, currency: Currency): bigint | undefined {
    const rate = this.rates.get(currency);
    if (rate === undefined) return undefined;
    const numerator = minor * rate.units * NOK_MINOR_PER_UNIT;
    const denominator = 10n ** BigInt(minorUnitsOf(currency)) * rate.scale;
    return (numerator * 2n + denominator) / (denominator * 2n);
  }

  /** An amount in NOK minor units converted to a currency's minor units, rounded half up. */
  fromNokMinor(nokMinor: bigint, currency: Currency): bigint | undefined {
    const rate = this.rates.get(currency);
    if (rate === undefined) return undefined;
    const numerator = nokMinor * 10n ** BigInt(minorUnitsOf(currency)) * rate.scale;
    const denominator = rate.units * NOK_MINOR_PER_UNIT;
    return (numerator * 2n + denominator) / (denominator * 2n);
  }

  /** An amount in one currency converted to another through NOK; exact when the two are the same. */
  convert(minor: bigint, from: Currency, to: Currency): bigint | undefined {
    if (from === to) return minor;
    const nok = this.toNokMinor(minor, from);
    return nok === undefined ? undefined : this.fromNokMinor(nok, to);
  }

  /** The table, each rate without trailing zeros, for documentation and the sandbox. */
  entries(): [Currency, string][] {
    return [...this.rates.entries()].map(([code, rate]) => [code, formatRate(rate)]);
  }
}

function formatRate(rate: Rate): string {
  const fractionDigits = rate.scale.toString().length - 1;
  if (fractionDigits === 0) return rate.units.toString();
  const text = rate.units.toString().padStart(fractionDigits + 1, '0');
  return `${text.slice(0, -fractionDigits)}.${text.slice(-fractionDigits)}`.replace(/\.?0+$/, '');
}
