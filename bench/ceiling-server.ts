import Fastify from 'fastify';

/**
 * The ceiling: a bare Fastify route that answers every POST with a fixed 201 JSON body of the size
 * of a payment answer (the first argument, in bytes), and every GET with a fixed 200 body of the
 * size of a status answer, or of the second argument's size when given (a listing page: the size
 * of an answer alone moves the latency here, bench/history.md "The listing's floor").
 */
const size = Number(process.argv[2] ?? 600);
const created = JSON.stringify({
  paymentId: 'enc!!x',
  transactionStatus: 'RCVD',
  padding: 'x'.repeat(Math.max(size - 60, 0)),
});
const getSize = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const status =
  getSize === undefined
    ? JSON.stringify({ transactionStatus: 'ACTC' })
    : JSON.stringify({ padding: 'x'.repeat(Math.max(getSize - 14, 0)) });
const app = Fastify({ logger: false });
app.post('/*', async (_request, reply) => reply.code(201).type('application/json').send(created));
app.get('/*', async (_request, reply) => reply.type('application/json').send(status));
await app.listen({ port: Number(process.env.PORT ?? 8191), host: '127.0.0.1' });
