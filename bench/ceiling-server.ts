import Fastify from 'fastify';

/**
 * The ceiling: a bare Fastify route that answers every POST with a fixed 201 JSON body of the size
 * of a payment answer, and every GET with a fixed 200 body of the size of a status answer.
 */
const size = Number(process.argv[2] ?? 600);
const created = JSON.stringify({ paymentId: 'enc!!x', transactionStatus: 'RCVD', padding: 'x'.repeat(Math.max(size - 60, 0)) });
const status = JSON.stringify({ transactionStatus: 'ACTC' });
const app = Fastify({ logger: false });
app.post('/*', async (_request, reply) => reply.code(201).type('application/json').send(created));
app.get('/*', async (_request, reply) => reply.type('application/json').send(status));
await app.listen({ port: Number(process.env.PORT ?? 8191), host: '127.0.0.1' });
