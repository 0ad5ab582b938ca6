/**
 * Where content-router writes what happens at start-up and to the storage engine: the start-up line (`info`), a
 * database that cannot be reached and an index rebuilt (`warn` / `error`), a start-up failure and its recovery.
 * `console` fits, and so do pino, winston and bunyan loggers (each method is called on its object with one
 * string). Unexpected request errors (500s) go to `onError` instead.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const SILENT: Logger = Object.freeze({ info: () => undefined, warn: () => undefined, error: () => undefined });

/**
 * The logger of the `logger` option: the host's (its methods called on it, so pino's `this` holds), none for
 * `false`, or `console` by default, whose `info` lines are skipped when `NODE_ENV` is `test`: the way Express keeps
 * its own logging out of test runs (`logerror` in express 5 `lib/application.js` writes nothing when the app's
 * `env`, from `NODE_ENV`, is `test`). Warnings and errors are written in tests too: they say something is wrong.
 *
 * @example
 * const logger = createLogger(options.logger); // console, quiet under NODE_ENV=test
 * createLogger(pino()); createLogger(false);
 */
export function createLogger(option: Logger | false | undefined): Logger {
  if (option === false) return SILENT;
  if (option !== undefined) {
    return { info: (m) => option.info(m), warn: (m) => option.warn(m), error: (m) => option.error(m) };
  }
  const quiet = process.env.NODE_ENV === 'test';
  return {
    info: (m) => {
      if (!quiet) console.info(m);
    },
    warn: (m) => console.warn(m),
    error: (m) => console.error(m),
  };
}
