import { createHash } from 'node:crypto';
import { SIGNATURE_EXPLANATION_ORDERS_MAX } from '../domain/limits.js';
import { SIGNED_WHEN_PRESENT, type SignedRequest, signedValueOf } from './signed-request.js';
import type { SignedDigest } from './signed-digest.js';
import type { SignatureMistakeName } from './signature-mistakes.js';

/** What the signed text turned out to be, when it is one of the variants tried. */
export interface SignedTextFinding {
  name: Extract<SignatureMistakeName, 'SIGNED_HEADERS_ORDER' | 'SIGNING_STRING_FORM'>;
  text: string;
}

/**
 * The text a signature made with the certificate's key was made over, found among the texts clients
 * commonly sign by mistake: the same headers in another order, or the signing string in another
 * form. Each try is one hash compared with the one the signature holds. Undefined when none is it:
 * then a signed header's value differs from what was signed.
 */
export function findSignedText(
  request: SignedRequest,
  names: readonly string[],
  signed: SignedDigest,
): SignedTextFinding | undefined {
  const isSigned = (text: string) => createHash(signed.hash).update(text, 'utf8').digest().equals(signed.digest);
  // Each line once, as bytes: an order is then the lines hashed in turn, with no string built.
  const lines = linesOf(request, names, (name, value) => `${name}: ${value}`).map((line) => Buffer.from(line, 'utf8'));
  const newline = Buffer.from('\n');
  const isSignedOrder = (order: readonly number[]) => {
    const hash = createHash(signed.hash);
    order.forEach((index, at) => {
      if (at > 0) hash.update(newline);
      hash.update(lines[index]!);
    });
    return hash.digest().equals(signed.digest);
  };
  for (const order of ordersOf(names)) {
    if (isSignedOrder(order)) {
      return {
        name: 'SIGNED_HEADERS_ORDER',
        text: `the signature was made over the headers in the order '${order.map((i) => names[i]).join(' ')}', but headers="${names.join(' ')}" lists them in another: list them in the order they are signed`,
      };
    }
  }
  for (const form of FORMS) {
    if (form.applies(names) && isSigned(form.build(request, names)))
      return { name: 'SIGNING_STRING_FORM', text: form.text };
  }
  return undefined;
}

function linesOf(
  request: SignedRequest,
  names: readonly string[],
  line: (name: string, value: string) => string,
): string[] {
  return names.map((name) => line(name, signedValueOf(request, name) ?? ''));
}

/**
 * Every other order of the names (as indexes) while there are few, by Heap's algorithm, which swaps
 * two at a time in one array (the consumer reads it before the next); beyond, the orders clients
 * commonly use.
 */
function* ordersOf(names: readonly string[]): Generator<readonly number[]> {
  const n = names.length;
  if (factorial(n) <= SIGNATURE_EXPLANATION_ORDERS_MAX) {
    const order = names.map((_name, index) => index);
    const counters = new Array<number>(n).fill(0);
    for (let i = 1; i < n;) {
      if (counters[i]! < i) {
        const j = i % 2 === 0 ? 0 : counters[i]!;
        [order[i], order[j]] = [order[j]!, order[i]!];
        yield order;
        counters[i]!++;
        i = 1;
      } else {
        counters[i] = 0;
        i++;
      }
    }
    return;
  }
  const berlinGroup = (index: number) => {
    const at = (SIGNED_WHEN_PRESENT as readonly string[]).indexOf(names[index]!);
    return at === -1 ? SIGNED_WHEN_PRESENT.length : at;
  };
  const listed = names.map((_name, index) => index);
  for (const order of [
    [...listed].sort((a, b) => berlinGroup(a) - berlinGroup(b)),
    [...listed].sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0)),
    [...listed].reverse(),
  ]) {
    if (order.some((index, at) => index !== at)) yield order;
  }
}

function factorial(n: number): number {
  let product = 1;
  for (let i = 2; i <= n; i++) product *= i;
  return product;
}

/** The Berlin Group's spelling of the headers it signs; another header is written in title case. */
const SPELLINGS: Record<string, string> = {
  'x-request-id': 'X-Request-ID',
  'psu-id': 'PSU-ID',
  'psu-corporate-id': 'PSU-Corporate-ID',
  'tpp-redirect-uri': 'TPP-Redirect-URI',
};

function spelled(name: string): string {
  if (name === '(request-target)') return name;
  return (
    SPELLINGS[name] ??
    name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`)
  );
}

/** The forms a signing string is commonly built in by mistake, each with what to do instead. */
const FORMS: readonly {
  applies: (names: readonly string[]) => boolean;
  build: (request: SignedRequest, names: readonly string[]) => string;
  text: string;
}[] = [
  {
    applies: () => true,
    build: (request, names) => linesOf(request, names, (name, value) => `${spelled(name)}: ${value}`).join('\n'),
    text: 'the signing string was built with the header names as the request writes them (X-Request-ID: …); draft-cavage writes them in lower case (x-request-id: …)',
  },
  {
    applies: () => true,
    build: (request, names) => linesOf(request, names, (name, value) => `${name}: ${value}`).join('\r\n'),
    text: 'the lines of the signing string were joined with CRLF (\\r\\n); draft-cavage joins them with a single LF (\\n)',
  },
  {
    applies: () => true,
    build: (request, names) => `${linesOf(request, names, (name, value) => `${name}: ${value}`).join('\n')}\n`,
    text: 'the signing string was signed with a line break after its last line; the last line has none',
  },
  {
    applies: () => true,
    build: (request, names) => linesOf(request, names, (name, value) => `${name}:${value}`).join('\n'),
    text: 'the signing string was built as name:value; draft-cavage puts one space after the colon (name: value)',
  },
  {
    applies: (names) => names.includes('(request-target)'),
    build: (request, names) =>
      linesOf(request, names, (name, value) =>
        name === '(request-target)'
          ? `${name}: ${request.method.toUpperCase()} ${request.target}`
          : `${name}: ${value}`,
      ).join('\n'),
    text: '(request-target) was signed with the method in upper case; draft-cavage writes it in lower case (post /v1/…)',
  },
];
