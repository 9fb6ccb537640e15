import { ContractViolation } from './wire-values.js';

/**
 * Reads an answer's body, stopping as soon as it passes `maxBytes`: a core that sends 10 MB (or never
 * stops) costs at most `maxBytes` of memory, and the connection is released at once.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ContractViolation(`the answer declares ${declared} bytes; at most ${maxBytes} are read`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ContractViolation(`the answer is over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
