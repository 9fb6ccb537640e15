/** What is wrong with one variable's value, in words the operator can act on. */
export class Problem {
  constructor(readonly text: string) {}
}

/** A whole number from min to max; otherwise the problem, with the text that was given. */
export function integerIn(text: string, min: number, max: number, rule: string): number | Problem {
  return parseInteger(text, min, max) ?? new Problem(`${rule} (got '${text}')`);
}

export function parseInteger(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** Whether a setting's text is an absolute http or https address. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
