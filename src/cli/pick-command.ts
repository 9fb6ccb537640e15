import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';

/** Longest path `tpp pick` takes: a path is typed by a person, never generated. */
const MAX_PATH_STEPS = 32;

/**
 * `tpp pick`: one value of an answer `tpp call` printed (its status line, then JSON), so that a shell
 * script keeps the ids it needs without jq: `PAYMENT=$(tpp pick paymentId "$W/created.txt")`. A path
 * is names and indexes separated by dots, and `[name=value]` picks the first element of a list whose
 * `name` is `value`: `accounts[bban=15061012351].resourceId`. A string prints as it is, anything
 * else as JSON.
 */
export function addPickCommand(program: Command): void {
  program
    .command('pick')
    .description('print one value of an answer tpp call saved: tpp pick _links.scaRedirect.href answer.txt')
    .argument(
      '<path>',
      'dotted path, e.g. _links.status.href, accounts.0.resourceId or accounts[bban=15061012351].iban',
    )
    .argument('[file]', 'the saved output of tpp call (or its JSON alone); standard input when left out')
    .action(async (path: string, file: string | undefined) => {
      const text = file === undefined ? await readStdin() : await readFile(file, 'utf8');
      const value = pick(parseAnswer(text), path);
      if (value === undefined) throw new InvalidArgumentError(`the answer has nothing at '${path}'`);
      process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
    });
}

/** The JSON of `tpp call`'s output, past its status line (`HTTP 201`), or JSON given alone. */
function parseAnswer(text: string): unknown {
  const json = /^HTTP \d{3}\r?\n/.test(text) ? text.slice(text.indexOf('\n') + 1) : text;
  try {
    return JSON.parse(json);
  } catch {
    throw new InvalidArgumentError('the answer is not JSON (tpp pick reads what tpp call printed)');
  }
}

function pick(root: unknown, path: string): unknown {
  const steps = path.match(/\[[^\]]*\]|[^.[\]]+/g) ?? [];
  if (steps.length > MAX_PATH_STEPS) throw new InvalidArgumentError(`a path has at most ${MAX_PATH_STEPS} steps`);
  let current = root;
  for (const step of steps) {
    if (current === null || typeof current !== 'object') return undefined;
    const selector = /^\[([^=\]]+)=([^\]]*)\]$/.exec(step);
    if (selector !== null) {
      if (!Array.isArray(current)) return undefined;
      const [, name, value] = selector;
      current = current.find((item: unknown) => {
        const field = (item as Record<string, unknown> | null)?.[name!];
        return field !== undefined && String(field) === value;
      });
    } else current = (current as Record<string, unknown>)[step.replace(/^\[|\]$/g, '')];
  }
  return current;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
