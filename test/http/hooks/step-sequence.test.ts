import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type SometimesWaiting,
  inSequence,
  waitsOnlyWhenNeeded,
} from '../../../src/http/hooks/waits-only-when-needed.js';

/**
 * A signed operation's steps run as one preValidation hook (docs/decisions/0362): in order, a waiting
 * step holding back the steps after it, and the first failure ending the run as the request's error.
 */
describe('inSequence', () => {
  const request = {} as FastifyRequest;
  const reply = {} as FastifyReply;
  /** Runs the steps as Fastify runs the hook: what `done` was given. */
  const run = (steps: SometimesWaiting[]) =>
    new Promise<Error | undefined>((resolve) => {
      waitsOnlyWhenNeeded(inSequence(steps)).call(undefined as never, request, reply, resolve as () => void);
    });

  it('runs every step in order, with no promise when none waits', () => {
    const ran: string[] = [];
    const step =
      (name: string): SometimesWaiting =>
      () => {
        ran.push(name);
        return undefined;
      };
    assert.equal(inSequence([step('a'), step('b'), step('c')])(request, reply), undefined);
    assert.deepEqual(ran, ['a', 'b', 'c']);
  });

  it('runs the steps after a waiting one only once it is done', async () => {
    const ran: string[] = [];
    let finish!: () => void;
    const waiting: SometimesWaiting = () => {
      ran.push('waits');
      return new Promise<void>((resolve) => {
        finish = () => {
          ran.push('done waiting');
          resolve();
        };
      });
    };
    const after: SometimesWaiting = () => {
      ran.push('after');
      return undefined;
    };
    const result = run([waiting, after]);
    assert.deepEqual(ran, ['waits']);
    finish();
    assert.equal(await result, undefined);
    assert.deepEqual(ran, ['waits', 'done waiting', 'after']);
  });

  it('ends at the first step that throws or rejects: the steps after it do not run', async () => {
    const ran: string[] = [];
    const refusal = new Error('refused');
    const later: SometimesWaiting = () => {
      ran.push('later');
      return undefined;
    };
    const throwing: SometimesWaiting = () => {
      throw refusal;
    };
    const rejecting: SometimesWaiting = () => Promise.reject(refusal);
    assert.equal(await run([throwing, later]), refusal);
    assert.equal(await run([rejecting, later]), refusal);
    // A step after a waiting one that throws: the run's promise rejects with it.
    assert.equal(await run([() => Promise.resolve(), throwing, later]), refusal);
    assert.deepEqual(ran, []);
  });
});
