import { CONFIG_VARIABLES } from './config-variables.js';
import { Problem, integerIn } from './setting-problem.js';

export type VariableName = keyof typeof CONFIG_VARIABLES;

/** Reads the variables of an environment, and keeps every problem found with their values, in the order they were read. */
export class SettingsReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Record<string, string | undefined>) {}

  /** The variable's value, trimmed; its default when unset or blank. */
  read(name: VariableName): string {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? CONFIG_VARIABLES[name] : value.trim();
  }

  /** Whether the environment sets the variable (to more than blanks). */
  given(name: VariableName): boolean {
    return (this.env[name] ?? '').trim() !== '';
  }

  /** The value parsed, or undefined with its problem kept. */
  take<T>(parsed: T | Problem): T | undefined {
    if (!(parsed instanceof Problem)) return parsed;
    this.problems.push(parsed.text);
    return undefined;
  }

  /** A whole-number setting from min to max; the message names the setting, its unit and its range. */
  whole(name: VariableName, min: number, max: number, unit = '', why = ''): number | undefined {
    return this.take(
      integerIn(
        this.read(name),
        min,
        max,
        `${name} must be a whole number${unit === '' ? '' : ` of ${unit}`} from ${min} to ${max}${why}`,
      ),
    );
  }
}
