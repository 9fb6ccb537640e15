import type { FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';

/** A hook's work: a promise when it must wait (a CRL to fetch, a bank to open, an armed fault), else nothing. */
export type SometimesWaiting = (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined;

/**
 * A preValidation hook whose work waits only now and then, written with Fastify's `done`: the
 * common request, which waits for nothing, pays no promise and no turn of the microtask queue
 * (docs/decisions/0350). A throw, or a rejection, is the request's error.
 */
export function waitsOnlyWhenNeeded(work: SometimesWaiting): preValidationHookHandler {
  return (request, reply, done) => {
    let waiting: Promise<void> | undefined;
    try {
      waiting = work(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (waiting === undefined) done();
    else
      waiting.then(
        () => done(),
        (error: unknown) => done(error as Error),
      );
  };
}

/**
 * Steps run one after another as one step, so that an operation's steps cost Fastify one hook
 * (docs/decisions/0362): a step that waits holds back the steps after it, and the first to throw or
 * reject is the request's error; those after it do not run.
 */
export function inSequence(steps: readonly SometimesWaiting[]): SometimesWaiting {
  const from = (first: number, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    for (let i = first; i < steps.length; i++) {
      const waiting = steps[i]!(request, reply);
      if (waiting !== undefined) return waiting.then(() => from(i + 1, request, reply));
    }
    return undefined;
  };
  return (request, reply) => from(0, request, reply);
}
