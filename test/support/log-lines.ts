import { PassThrough } from 'node:stream';

/**
 * The server's JSON log kept line by line, for tests that read what it logged: `stream` goes to the
 * logger's options, `lines` holds every complete line parsed, and `onLine` is called after each.
 */
export class LogLines {
  readonly stream = new PassThrough();
  readonly lines: Record<string, unknown>[] = [];
  onLine: () => void = () => undefined;
  private pending = '';

  constructor() {
    this.stream.on('data', (chunk: Buffer) => {
      this.pending += String(chunk);
      const complete = this.pending.split('\n');
      this.pending = complete.pop()!;
      for (const text of complete.filter((l) => l !== '')) this.lines.push(JSON.parse(text) as Record<string, unknown>);
      this.onLine();
    });
  }
}
