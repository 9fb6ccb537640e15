import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type Bindings = Parameters<ChildLoggerFactory>[1];
type ChildLoggerOptions = Parameters<ChildLoggerFactory>[2];
type Child = (this: FastifyBaseLogger, bindings: Bindings, options?: ChildLoggerOptions) => FastifyBaseLogger;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArguments = [unknown, ...unknown[]];

/** A logger that tells which levels it writes, as pino's does; Fastify's logger off (`false`) does not. */
interface LevelAware {
  isLevelEnabled(level: string): boolean;
}

/**
 * Makes each request's logger only when the request logs a line at a level that is written. pino's
 * child serialises its bindings, the request's id, when it is made, and Fastify makes one for every
 * request; at LOG_LEVEL=warn nearly every request logs nothing (docs/decisions/0362). Every line a
 * request writes still carries its reqId.
 *
 * Done on the server's logger's own `child`, which Fastify's default childLoggerFactory calls, and not
 * as a factory of ours: Fastify checks every child a factory other than its own makes for seven
 * methods, on every request (docs/decisions/0373). pino's children inherit the replaced `child`, so a
 * child's children are made as lazily.
 */
export function makeRequestLoggersLazy(logger: FastifyBaseLogger): void {
  if (!isLevelAware(logger)) return;
  const child = logger.child as Child;
  // `this` is the logger or one of pino's children of it, which tell their levels as it does.
  logger.child = function lazyChild(
    this: FastifyBaseLogger & LevelAware,
    bindings: Bindings,
    options?: ChildLoggerOptions,
  ) {
    // A route's own log level (`options.level`) is the child's to judge: it is made at once.
    return options?.level === undefined
      ? new RequestLogger(this, bindings, options, child)
      : child.call(this, bindings, options);
  } as FastifyBaseLogger['child'];
}

function isLevelAware(logger: FastifyBaseLogger): logger is FastifyBaseLogger & LevelAware {
  return typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';
}

class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions | undefined,
    /** pino's own child, which makes the logger this one stands for. */
    private readonly makeChild: Child,
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
    this.made ??= this.makeChild.call(this.parent, this.bindings, this.options);
    return this.made;
  }
}
