import { ERROR_EXAMPLES, type OperationPlace, errorExamplesOf } from './error-examples.js';
import type { OperationExample } from './operation-example.js';
import { OPERATION_EXAMPLES } from './operation-examples.js';

/**
 * Puts the examples into the OpenAPI document @fastify/swagger generated from the route schemas:
 * each operation's request and success answer (operation-examples.ts) in its media types, and the
 * error answers it can give, each once in components.examples and referred to from the responses.
 * The schemas themselves are untouched: examples document, they do not validate.
 */

interface MediaType {
  schema?: unknown;
  examples?: Record<string, unknown>;
}
interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
}

const JSON_MEDIA = 'application/json';

export function withExamples<T extends object>(generated: T): T {
  const document = generated as Document;
  const used = new Set<string>();
  for (const [path, byMethod] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(byMethod)) {
      const operationId = operation.operationId ?? '';
      const example = OPERATION_EXAMPLES[operationId];
      if (example !== undefined) addOperationExample(operation, example);
      for (const name of addErrorExamples(operation, { path, operationId })) used.add(name);
    }
  }
  const examples = Object.fromEntries(
    [...used].sort().map((name) => {
      const { summary, value } = ERROR_EXAMPLES[name]!;
      return [name, { summary, value }];
    }),
  );
  document.components = { ...document.components, examples };
  return generated;
}

function addOperationExample(operation: Operation, example: OperationExample): void {
  const { summary, request, answer } = example;
  const requestMedia = operation.requestBody?.content?.[JSON_MEDIA];
  if (request !== undefined && requestMedia !== undefined)
    requestMedia.examples = { request: { summary, value: request } };
  const answerMedia = operation.responses?.[String(answer.status)]?.content?.[JSON_MEDIA];
  if (answer.body !== undefined && answerMedia !== undefined)
    answerMedia.examples = { answer: { summary, value: answer.body } };
}

/** Lists the error examples on each error response of the operation; gives their names. */
function addErrorExamples(operation: Operation, place: OperationPlace): string[] {
  const listed: string[] = [];
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const media = response.content?.[JSON_MEDIA];
    if (Number(status) < 400 || media === undefined) continue;
    const names = errorExamplesOf(place, Number(status));
    if (names.length === 0) continue;
    media.examples = Object.fromEntries(names.map((name) => [name, { $ref: `#/components/examples/${name}` }]));
    listed.push(...names);
  }
  return listed;
}
