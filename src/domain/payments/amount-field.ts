import type { Problem } from '../api-error.js';
import { isCurrency } from '../currency.js';
import { type Money, parseAmount } from '../money.js';
import { objectAt, stringAt } from './field-reader.js';

/** Reads an Amount field ({amount, currency}); the amount's own rules are in money.ts. */
export function readAmount(body: unknown, key: string, path: string, problems: Problem[]): Money | undefined {
  const field = objectAt(body, key);
  const amount = stringAt(field, 'amount');
  const currency = stringAt(field, 'currency');
  if (amount === undefined || !isCurrency(currency)) return undefined;
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok) {
    problems.push({
      code: 'FORMAT_ERROR',
      path: `${path}.amount`,
      text: `${path}.amount '${amount}' ${parsed.reason}`,
    });
    return undefined;
  }
  return { minor: parsed.minor, currency };
}
