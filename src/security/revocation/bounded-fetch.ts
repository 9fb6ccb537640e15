/** A CRL or OCSP fetch that failed: the address, and why, for the log and the 503's reason. */
export class RevocationFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RevocationFetchError';
  }
}

export interface BoundedRequest {
  url: string;
  maxBytes: number;
  timeoutMs: number;
  /** An OCSP request is POSTed (RFC 6960, A.1); a CRL is fetched with GET. */
  post?: { contentType: string; body: Uint8Array };
  accept?: string;
}

/**
 * Fetches the bytes at an address a certificate named, bounded: http or https only, no redirect
 * (a distribution point that redirects is misconfigured, and a redirect could lead anywhere), at most
 * `maxBytes` (refused by Content-Length before reading, or as soon as the body passes it) and at most
 * `timeoutMs` from connecting to the last byte.
 */
export async function fetchBounded(request: BoundedRequest): Promise<Uint8Array> {
  const { url, maxBytes } = request;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new RevocationFetchError(`'${url}' is not an address`);
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new RevocationFetchError(`${url}: only http and https addresses are fetched`);
  try {
    const response = await fetch(url, {
      method: request.post === undefined ? 'GET' : 'POST',
      redirect: 'error',
      signal: AbortSignal.timeout(request.timeoutMs),
      headers: {
        ...(request.accept === undefined ? {} : { accept: request.accept }),
        ...(request.post === undefined ? {} : { 'content-type': request.post.contentType }),
      },
      ...(request.post === undefined ? {} : { body: request.post.body }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new RevocationFetchError(`${url} answered ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw new RevocationFetchError(`${url} sends ${declared} bytes, more than the ${maxBytes} read`);
    }
    return await readAtMost(response, url, maxBytes);
  } catch (error) {
    if (error instanceof RevocationFetchError) throw error;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${request.timeoutMs} ms`
        : String((error as Error).cause ?? (error as Error).message);
    throw new RevocationFetchError(`${url}: ${reason}`);
  }
}

async function readAtMost(response: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body === null) return new Uint8Array();
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new RevocationFetchError(`${url} sends more than the ${maxBytes} bytes read`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
