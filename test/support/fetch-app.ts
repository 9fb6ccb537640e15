import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * A server process dressed as an app to inject into, for the page clients of the tests (ScriptedPsu):
 * each inject is a fetch to `base`, redirects not followed, with the answer in light-my-request's shape.
 */
export function fetchApp(base: string): FastifyInstance {
  const inject = async (options: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  }): Promise<LightMyRequestResponse> => {
    const url = new URL(options.url, base);
    const answer = await fetch(url, {
      method: options.method,
      headers: options.headers ?? {},
      ...(options.payload === undefined ? {} : { body: options.payload }),
      redirect: 'manual',
    });
    const headers: Record<string, string | string[]> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    headers['set-cookie'] = answer.headers.getSetCookie();
    const body = await answer.text();
    return { statusCode: answer.status, headers, body } as unknown as LightMyRequestResponse;
  };
  return { inject } as unknown as FastifyInstance;
}
