import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type Bindings = Parameters<ChildLoggerFactory>[1];
type ChildLoggerOptions = Parameters<ChildLoggerFactory>[2];

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArguments = [unknown, ...unknown[]];

/** A logger that tells which levels it writes, as pino's does; Fastify's logger off (`false`) does not. */
interface LevelAware {
  isLevelEnabled(level: string): boolean;
}

/**
 * A request's logger (Fastify's `childLoggerFactory`), made only when the request logs a line at a
 * level that is written. pino's child serialises its bindings, the request's id, when it is made,
 * and Fastify makes one for every request; at LOG_LEVEL=warn nearly every request logs nothing
 * (docs/decisions/0362). Every line a request writes still carries its reqId.
 */
export const lazyRequestLogger: ChildLoggerFactory = (logger, bindings, options) =>
  // A route's own log level (`options.level`) is the child's to judge: it is made at once.
  isLevelAware(logger) && options.level === undefined
    ? new RequestLogger(logger, bindings, options)
    : logger.child(bindings, options);

function isLevelAware(logger: FastifyBaseLogger): logger is FastifyBaseLogger & LevelAware {
  return typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';
}

class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...args: LogArguments): void {
    this.write('fatal', args);
  }

  error(...args: LogArguments): void {
    this.write('error', args);
  }

  warn(...args: LogArguments): void {
    this.write('warn', args);
  }

  info(...args: LogArguments): void {
    this.write('info', args);
  }

  debug(...args: LogArguments): void {
    this.write('debug', args);
  }

  trace(...args: LogArguments): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  private write(level: Level, args: LogArguments): void {
    // Once made (a line written, or a level set on this request alone), the child judges.
    if (this.made === undefined && !this.parent.isLevelEnabled(level)) return;
    const made = this.real();
    (made[level] as (...line: LogArguments) => void).apply(made, args);
  }

  /** pino's child with the request's bindings: made once, on the first line written. */
  private real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
}
