import { type Currency, isCurrency, minorUnitsOf } from './currency.js';

/** Rates are kept as integers of millionths of a krone per unit: decimal strings in, no float anywhere. */
const RATE_SCALE = 1_000_000n;
const NOK_MINOR_PER_UNIT = 100n;

/**
 * The bank's reference rates: kroner for one unit of a currency. The sandbox's table is indicative
 * (docs/fees.md) and can be replaced with REFERENCE_RATES; production loads the bank's own.
 */
export const SANDBOX_REFERENCE_RATES: Readonly<Record<string, string>> = {
  NOK: '1',
  EUR: '11.70', USD: '10.80', GBP: '13.90', SEK: '1.02', DKK: '1.57', CHF: '12.40', ISK: '0.083',
  PLN: '2.70', CZK: '0.47', HUF: '0.030', CAD: '7.80', AUD: '7.10', NZD: '6.40', JPY: '0.071',
  CNY: '1.50', HKD: '1.39', SGD: '8.20', INR: '0.13', ZAR: '0.60', TRY: '0.32', THB: '0.31',
  KWD: '35.20', BHD: '28.70', JOD: '15.20', OMR: '28.10', TND: '3.50', KRW: '0.0078', CLP: '0.011',
};

export class ReferenceRates {
  private readonly rates: ReadonlyMap<Currency, bigint>;

  constructor(table: Readonly<Record<string, string>>) {
    const rates = new Map<Currency, bigint>();
    for (const [code, text] of Object.entries(table)) {
      if (!isCurrency(code)) throw new Error(`reference rate for '${code}', which is not a currency of the specification`);
      const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text);
      if (match === null) throw new Error(`reference rate for ${code} must be a decimal with at most 6 fraction digits (got '${text}')`);
      const micro = BigInt(match[1]! + (match[2] ?? '').padEnd(6, '0'));
      if (micro === 0n) throw new Error(`reference rate for ${code} must be more than zero`);
      rates.set(code, micro);
    }
    rates.set('NOK', RATE_SCALE);
    this.rates = rates;
  }

  /** Parses `EUR=11.70,USD=10.80` (the REFERENCE_RATES variable). */
  static parse(text: string): ReferenceRates {
    const table: Record<string, string> = {};
    for (const pair of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
      const parts = pair.split('=').map((p) => p.trim());
      const [code, rate] = parts;
      if (parts.length !== 2 || code === undefined || rate === undefined || code === '') throw new Error(`'${pair}' is not of the form CODE=rate`);
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
    const numerator = minor * rate * NOK_MINOR_PER_UNIT;
    const denominator = 10n ** BigInt(minorUnitsOf(currency)) * RATE_SCALE;
    return (numerator * 2n + denominator) / (denominator * 2n);
  }

  /** An amount in NOK minor units converted to a currency's minor units, rounded half up. */
  fromNokMinor(nokMinor: bigint, currency: Currency): bigint | undefined {
    const rate = this.rates.get(currency);
    if (rate === undefined) return undefined;
    const numerator = nokMinor * 10n ** BigInt(minorUnitsOf(currency)) * RATE_SCALE;
    const denominator = rate * NOK_MINOR_PER_UNIT;
    return (numerator * 2n + denominator) / (denominator * 2n);
  }

  /** An amount in one currency converted to another through NOK; exact when the two are the same. */
  convert(minor: bigint, from: Currency, to: Currency): bigint | undefined {
    if (from === to) return minor;
    const nok = this.toNokMinor(minor, from);
    return nok === undefined ? undefined : this.fromNokMinor(nok, to);
  }

  /** The table as given, for documentation and the sandbox. */
  entries(): [Currency, string][] {
    return [...this.rates.entries()].map(([code, micro]) => [code, formatRate(micro)]);
  }
}

function formatRate(micro: bigint): string {
  const text = micro.toString().padStart(7, '0');
  return `${text.slice(0, -6)}.${text.slice(-6)}`.replace(/\.?0+$/, '');
}
