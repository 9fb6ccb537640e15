import type { Json } from '../../domain/json.js';
import type { Language } from '../../domain/language.js';
import { SCENARIO_KINDS, type ScenarioKind } from '../../domain/sandbox-scenarios.js';
import { armedEntries } from './armed-scenario-view.js';
import { reasonMeaning } from './reason-texts.js';
import { NUMBER_BOUNDS, REASON_CODES, SCENARIO_FIELDS, type ScenarioField, TEXT_MAX_LENGTHS } from './scenario-form.js';
import type { ScenarioTexts } from './scenario-texts.js';

/** What the console's scenarios page shows (console-page-renderer.ts). */
export interface ScenariosPageData {
  armed: Json[];
  /** The kind whose form is shown (chosen in the form's first step). */
  chosen: ScenarioKind | undefined;
  /** The bank's API operations a bank scenario may name. */
  operations: readonly string[];
}

/** The scenarios page's view: the scenarios armed, the kinds to choose from, and the chosen kind's form. */
export function scenariosView(page: ScenariosPageData, texts: ScenarioTexts, language: Language) {
  const chosen = page.chosen;
  return {
    t: texts,
    armed: page.armed.map((scenario) => {
      const kind = String(scenario.kind) as ScenarioKind;
      return {
        kind,
        name: texts.kinds[kind]?.name ?? kind,
        disarm: `/console/scenarios/${encodeURIComponent(String(scenario.scenarioId))}/disarm`,
        // The rule as the API reads it back, field by field, written for people.
        entries: armedEntries(scenario as Record<string, unknown>, texts, language),
      };
    }),
    kinds: SCENARIO_KINDS.map((k) => ({ value: k, label: texts.kinds[k].name, selected: k === chosen })),
    form:
      chosen === undefined
        ? undefined
        : {
            kind: chosen,
            name: texts.kinds[chosen].name,
            text: texts.kinds[chosen].text,
            matchHint: SCENARIO_FIELDS[chosen].includes('debtorBban') ? texts.matchHint : undefined,
            fields: SCENARIO_FIELDS[chosen].map((name) => fieldView(name, chosen, page.operations, texts, language)),
          },
  };
}

/** One input of a kind's form: a whole number within its bounds, a choice, or a text. */
function fieldView(
  name: ScenarioField,
  chosen: ScenarioKind,
  operations: readonly string[],
  texts: ScenarioTexts,
  language: Language,
) {
  const { label, hint } = texts.fields[name];
  const bounds = NUMBER_BOUNDS[name];
  if (bounds !== undefined)
    return { name, label, hint, type: 'number', min: bounds.min, max: bounds.max, value: bounds.initial };
  if (name === 'then')
    return {
      name,
      label,
      hint,
      type: 'select',
      options: (['ACSC', 'RJCT'] as const).map((v) => ({
        value: v,
        label: texts.then[v],
        selected: false,
      })),
    };
  if (name === 'reasonCode')
    return {
      name,
      label,
      hint,
      type: 'select',
      options: REASON_CODES.map((code) => ({
        value: code,
        label: `${code}: ${reasonMeaning(code, language)}`,
        selected: code === 'MS03',
      })),
    };
  if (name === 'operationId')
    return {
      name,
      label,
      hint,
      type: 'select',
      options: [
        ...(chosen === 'bank-error' ? [] : [{ value: '', label: texts.everyOperation, selected: true }]),
        ...[...operations].sort().map((id) => ({ value: id, label: id, selected: false })),
      ],
    };
  return {
    name,
    label,
    hint,
    type: 'text',
    maxLength: TEXT_MAX_LENGTHS[name] ?? 100,
    value: name === 'currency' ? 'NOK' : '',
  };
}
