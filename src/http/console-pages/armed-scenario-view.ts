import type { Language } from '../../domain/language.js';
import { isCurrency } from '../../domain/currency.js';
import { parseAmount } from '../../domain/money.js';
import type { ScenarioKind } from '../../domain/sandbox-scenarios.js';
import { money } from '../sca-pages/sca-page-renderer.js';
import { osloTime } from './console-time.js';
import { describeReason } from './reason-texts.js';
import type { ScenarioTexts } from './scenario-texts.js';

/** A field of an armed scenario as the console lists it: a label for people, and its value written out. */
export interface ArmedEntry {
  label: string;
  value: string;
}

/**
 * An armed scenario (as GET /v1/sandbox/scenarios reads it back) field by field, each with its label
 * from the texts and its value as a person reads it: amounts as money, instants in Norwegian time,
 * reasons with their code's meaning. A field the texts do not know is left out rather than shown raw:
 * the API's JSON is the place for every detail.
 */
export function armedEntries(
  scenario: Record<string, unknown>,
  texts: ScenarioTexts,
  language: Language,
): ArmedEntry[] {
  const l = texts.armedFields;
  const entries: ArmedEntry[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined) entries.push({ label, value });
  };
  const match = scenario.match as Record<string, unknown> | undefined;
  if (match !== undefined) {
    const account = match.debtorAccount as Record<string, string> | undefined;
    const amount = match.instructedAmount as { amount: string; currency: string } | undefined;
    const endToEnd = match.endToEndIdentification;
    add(l.debtorAccount, account === undefined ? undefined : (account.bban ?? account.iban));
    add(l.amount, amount === undefined ? undefined : amountText(amount, language));
    add(l.endToEnd, typeof endToEnd === 'string' ? endToEnd : undefined);
    if (account === undefined && amount === undefined && endToEnd === undefined) add(l.matches, l.everyPayment);
  }
  const text = (name: string) => (typeof scenario[name] === 'string' ? (scenario[name] as string) : undefined);
  const number = (name: string) => (typeof scenario[name] === 'number' ? (scenario[name] as number) : undefined);
  const kind = String(scenario.kind) as ScenarioKind;
  if (kind.startsWith('bank-')) add(l.operation, text('operationId') ?? texts.everyOperation);
  const at = (name: string) => {
    const value = text(name);
    return value === undefined ? undefined : osloTime(new Date(value));
  };
  add(l.from, at('from'));
  add(l.until, at('until'));
  const then = text('then');
  add(l.then, then === 'ACSC' || then === 'RJCT' ? texts.then[then] : then);
  const reason = text('statusReason');
  add(l.reason, reason === undefined ? undefined : describeReason(reason, language));
  const retry = number('retryAfterSeconds');
  add(l.retryAfter, retry === undefined ? undefined : l.seconds(retry));
  const delay = number('delayMs');
  add(l.delay, delay === undefined ? undefined : l.milliseconds(delay));
  const times = scenario.timesLeft;
  add(l.timesLeft, times === 'unlimited' ? texts.unlimited : typeof times === 'number' ? String(times) : undefined);
  add(l.armedAt, at('armedAt'));
  return entries;
}

function amountText(amount: { amount: string; currency: string }, language: Language): string {
  const parsed = isCurrency(amount.currency) ? parseAmount(amount.amount, amount.currency) : undefined;
  return parsed?.ok === true ? money(parsed.minor, amount.currency, language) : `${amount.currency} ${amount.amount}`;
}
