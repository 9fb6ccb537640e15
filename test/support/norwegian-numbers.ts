import { composeIBAN } from 'ibantools';

/**
 * Norwegian numbers with valid check digits for test data, a new one on each call and unique within
 * a test process: national identity numbers, organisation numbers and account numbers.
 */

let personCounter = 0;
/** A Norwegian national identity number (fnr) with valid check digits. */
export function nextFnr(): string {
  for (;;) {
    const n = personCounter++;
    const day = String(1 + (n % 28)).padStart(2, '0');
    const month = String(1 + (Math.floor(n / 28) % 12)).padStart(2, '0');
    const individual = String(100 + Math.floor(n / 336)).padStart(3, '0');
    const digits = `${day}${month}85${individual}`.split('').map(Number);
    const k1 = check(digits, [3, 7, 6, 1, 8, 9, 4, 5, 2]);
    if (k1 === undefined) continue;
    const k2 = check([...digits, k1], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]);
    if (k2 === undefined) continue;
    return `${digits.join('')}${k1}${k2}`;
  }
}

let organisationCounter = 0;
/** A Norwegian organisation number (MOD11 with weights 3, 2, 7, 6, 5, 4, 3, 2). */
export function nextOrganisationNumber(): string {
  for (;;) {
    const digits = String(91_234_000 + organisationCounter++)
      .split('')
      .map(Number);
    const k = check(digits, [3, 2, 7, 6, 5, 4, 3, 2]);
    if (k !== undefined) return `${digits.join('')}${k}`;
  }
}

let accountCounter = 0;
/** A Norwegian account number (MOD11 with weights 5, 4, 3, 2, 7, 6, 5, 4, 3, 2). */
export function nextBban(): string {
  for (;;) {
    const digits = `9650${String(accountCounter++).padStart(6, '0')}`.split('').map(Number);
    const k = check(digits, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]);
    if (k !== undefined) return `${digits.join('')}${k}`;
  }
}

function check(digits: number[], weights: number[]): number | undefined {
  const rest = weights.reduce((sum, w, i) => sum + w * digits[i]!, 0) % 11;
  const k = rest === 0 ? 0 : 11 - rest;
  return k === 10 ? undefined : k;
}

/** The Norwegian IBAN of a BBAN. */
export const ibanOf = (bban: string): string => composeIBAN({ countryCode: 'NO', bban })!;
