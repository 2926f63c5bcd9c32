/**
 * The daemon's log port: the one leaf every layer may import (it imports nothing). Both composition
 * roots give an implementation (electron-log in the app, stderr lines in serve); tests give none.
 */
export interface DaemonLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}
