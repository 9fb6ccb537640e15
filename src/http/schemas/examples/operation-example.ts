/**
 * An operation's example in the OpenAPI document: the request a TPP sends and the answer it gets when
 * the request succeeds. Each product's file gives those of its operations, keyed by operationId
 * (operation-ids.ts); document-examples.ts puts them into the document, beside the shared error
 * examples (error-examples.ts). test/http/openapi-examples.test.ts holds every one to its operation's
 * schemas, and test/http/openapi-examples-real.test.ts to the server's real answers.
 */
export interface OperationExample {
  /** What the example shows, in a line: its title on the reference page. */
  summary: string;
  /** The request body, where the operation takes one. */
  request?: unknown;
  /** The success answer: its status, and its body where that status has one (204 has none). */
  answer: { status: number; body?: unknown };
}

export type OperationExamples = Readonly<Record<string, OperationExample>>;

export interface Link {
  href: string;
  verbs: string[];
}

/** A link of `_links` as the server writes it. */
export function link(href: string, ...verbs: string[]): Link {
  return { href, verbs };
}
