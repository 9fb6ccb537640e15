/**
 * How a number is written in a text part of a request (a query parameter, a header, a path
 * segment): decimal digits with an optional sign, and for a `number` a fraction and an exponent too.
 * Ajv's coercion of text reads whatever JavaScript reads as a number: `0x10`, ` 1`, `1e1`, and
 * `Infinity`, which passed its integer check and its bounds and reached a page's read (a 500 from
 * `limit=Infinity`). Text that is not written this way is refused before Ajv sees it.
 */
const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export type NumberType = 'integer' | 'number';

/** The properties of a text part's schema that are numbers, with their type. */
export function numberProperties(schema: Record<string, unknown>): Map<string, NumberType> {
  const found = new Map<string, NumberType>();
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, { type?: unknown }>)) {
    if (property.type === 'integer' || property.type === 'number') found.set(name, property.type);
  }
  return found;
}

/** Whether `text` writes a number of `type` as this interface reads one: in decimal, and finite. */
export function isNumberText(text: string, type: NumberType): boolean {
  return type === 'integer' ? INTEGER_TEXT.test(text) : NUMBER_TEXT.test(text) && Number.isFinite(Number(text));
}

/** What the answer says such a value must be. */
export function numberTextRule(type: NumberType): string {
  return type === 'integer' ? 'a whole number, written in decimal digits' : 'a number, written in decimal digits';
}
