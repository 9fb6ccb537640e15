import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { makeRequestLoggersLazy } from '../../src/http/request-logger.js';

/**
 * A request's logger is made only when the request writes a line (docs/decisions/0362), and every line
 * a request writes still carries its reqId, at whatever level it is written.
 */
describe('makeRequestLoggersLazy', () => {
  async function appLogging(level: string) {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const app = Fastify({
      logger: { level, stream },
      disableRequestLogging: true,
      genReqId: () => 'req-1',
    });
    // pino's children counted: the lazy loggers stand in front of them.
    let childrenMade = 0;
    const child = app.log.child;
    app.log.child = function (this: typeof app.log, ...args: Parameters<typeof child>) {
      childrenMade++;
      return child.apply(this, args);
    } as typeof child;
    makeRequestLoggersLazy(app.log);
    app.get('/quiet', (request) => {
      request.log.info({ probe: 'info' }, 'not written at warn');
      request.log.debug('nor this');
      return { ok: true };
    });
    app.get('/loud', (request) => {
      request.log.warn({ probe: 'warn' }, 'written');
      request.log.error({ probe: 'error' }, 'written too');
      return { ok: true };
    });
    await app.ready();
    return { app, lines, made: () => childrenMade };
  }

  it('makes no child logger for a request that writes nothing at the level set', async () => {
    const { app, lines, made } = await appLogging('warn');
    assert.equal((await app.inject({ method: 'GET', url: '/quiet' })).statusCode, 200);
    assert.equal(made(), 0);
    assert.deepEqual(lines, []);
    await app.close();
  });

  it('makes the child at the first line written, once, and every line carries the reqId', async () => {
    const { app, lines, made } = await appLogging('warn');
    assert.equal((await app.inject({ method: 'GET', url: '/loud' })).statusCode, 200);
    assert.equal(made(), 1);
    assert.deepEqual(
      lines.map((line) => [line.reqId, line.probe, line.level]),
      [
        ['req-1', 'warn', 40],
        ['req-1', 'error', 50],
      ],
    );
    await app.close();
  });

  it('writes a request’s lower levels when the server logs them', async () => {
    const { app, lines } = await appLogging('debug');
    await app.inject({ method: 'GET', url: '/quiet' });
    assert.deepEqual(
      lines.map((line) => [line.reqId, line.msg]),
      [
        ['req-1', 'not written at warn'],
        ['req-1', 'nor this'],
      ],
    );
    await app.close();
  });
});
