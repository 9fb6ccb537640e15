/**
 * The reference core's fault switches (docs/core.md, "The reference core"): what a test of the
 * server arms to see it survive a core that is down, slow, failing, repeating itself or losing its
 * callbacks. Set at start from the environment, and at run time by POST /admin/faults.
 */
export interface Faults {
  /** Every operation of the contract answers 503 (the admin routes still answer, to switch it back). */
  down: boolean;
  /** Every answer of the contract waits this long first. */
  slowMs: number;
  /** Every operation of the contract answers 500. */
  error500: boolean;
  /** Each hand-over is taken twice, at once: it must still execute once. */
  answerTwice: boolean;
  /** Status reports are not pushed to CALLBACK_URL (they are dropped): the server's polling must catch up. */
  loseCallback: boolean;
}

export const NO_FAULTS: Faults = { down: false, slowMs: 0, error500: false, answerTwice: false, loseCallback: false };

/**
 * The most an answer is delayed by slowMs: a minute is longer than any timeout a server gives a core
 * (CORE_TIMEOUT_MS_MAX is 30 s), and a longer delay only ties up the reference core's connections.
 */
export const MAX_FAULT_SLOW_MS = 60_000;

/** The switches a request (or the environment) sets, over the ones in force; a problem names the switch it cannot read. */
export function changeFaults(current: Faults, changes: Record<string, unknown>): Faults | string {
  const next = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (name === 'slowMs') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_FAULT_SLOW_MS)
        return `slowMs must be a whole number of milliseconds from 0 to ${MAX_FAULT_SLOW_MS}`;
      next.slowMs = value;
    } else if (name === 'down' || name === 'error500' || name === 'answerTwice' || name === 'loseCallback') {
      if (typeof value !== 'boolean') return `${name} must be true or false`;
      next[name] = value;
    } else {
      return `${name} is not a fault switch (down, slowMs, error500, answerTwice, loseCallback)`;
    }
  }
  return next;
}

/** The switches the environment sets at start: CORE_FAULT_DOWN, CORE_FAULT_SLOW_MS, CORE_FAULT_ERROR500, CORE_FAULT_ANSWER_TWICE, CORE_FAULT_LOSE_CALLBACK. */
export function faultsFromEnvironment(env: NodeJS.ProcessEnv): Faults | string {
  const changes: Record<string, unknown> = {};
  const flag = (name: keyof Faults, variable: string) => {
    const value = env[variable];
    if (value !== undefined && value !== '')
      changes[name] = value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
  };
  flag('down', 'CORE_FAULT_DOWN');
  flag('error500', 'CORE_FAULT_ERROR500');
  flag('answerTwice', 'CORE_FAULT_ANSWER_TWICE');
  flag('loseCallback', 'CORE_FAULT_LOSE_CALLBACK');
  const slow = env['CORE_FAULT_SLOW_MS'];
  if (slow !== undefined && slow !== '') changes['slowMs'] = /^\d+$/.test(slow) ? Number(slow) : slow;
  const faults = changeFaults(NO_FAULTS, changes);
  return typeof faults === 'string' ? `CORE_FAULT_…: ${faults}` : faults;
}
