import type { FastifyInstance } from 'fastify';
import { routeOptionsOf } from '../route-options.js';

/**
 * The Location of an operation's answer as an absolute URL under PUBLIC_URL: Berlin Group's
 * definition of the header is a URL, and a TPP behind its own gateway resolves a path against the
 * wrong host. Services build their links as paths (`_links` stay so, as the platform's do); only the
 * header is made absolute, after the sandbox's address has been put in front of it. The pages'
 * redirects (SCA, console) stay paths: a browser resolves them against the page it is on.
 */
export function registerAbsoluteLocation(app: FastifyInstance, publicUrl: string): void {
  const base = publicUrl.replace(/\/+$/, '');
  app.addHook('onSend', (request, reply, payload, done) => {
    const location = routeOptionsOf(request).config.api === undefined ? undefined : reply.getHeader('location');
    if (typeof location === 'string' && location.startsWith('/')) reply.header('location', `${base}${location}`);
    done(null, payload);
  });
}
