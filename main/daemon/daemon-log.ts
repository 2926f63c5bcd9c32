/**
 * The daemon's log port: the one leaf every layer may import (it imports nothing). Both composition
 * roots give an implementation (electron-log in the app, stderr lines in serve); tests give none.
 *
 * issue 30: a disabled level must cost nothing on the hot path — not even the fields object a
 * call builds before `debug` can drop it. A caller on a hot path asks `debugEnabled` first and
 * builds its fields only when it is true: `if (log?.debugEnabled === true) log.debug('…', {…})`.
 */
export interface DaemonLog {
  /** Whether `debug` writes anything; false means a debug call would be dropped. */
  readonly debugEnabled: boolean;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}
