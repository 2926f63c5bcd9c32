/**
 * The app's log (electron-log/main): one file under `<userData>/logs`, rotated at 1 MiB into
 * `main.1.log … main.N.log` (electron-log alone keeps one `.old` generation;
 * research/reliability-perf.md §4). Message content never reaches the file at info level or
 * above: fields that carry content are replaced by their size (DaemonOptions.log contract).
 */
import log from 'electron-log/main';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';
import type { DaemonLog } from '../daemon/index.js';

export type AppLogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface AppLog extends DaemonLog {
  /** The current log file. */
  readonly path: string;
}

export interface AppLogOptions {
  readonly logsDir: string;
  /** Lowest level written to the file (default info). */
  readonly level?: AppLogLevel;
  /** Rotated generations kept besides the current file (default 5). */
  readonly keep?: number;
  /** Rotate when the file reaches this many bytes (default 1 MiB). */
  readonly maxSize?: number;
  /** Also print to the console (development). */
  readonly console?: boolean;
}

/** Field names that carry message content, prompts or runtime text (contract §6.5). */
export const CONTENT_FIELDS = [
  'content',
  'text',
  'prompt',
  'body',
  'reply',
  'output',
  'stdout',
  'stderr',
  'transcript',
  'payload',
  'request',
  'response',
] as const;

const byteLength = (v: unknown): number =>
  Buffer.byteLength(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''), 'utf8');

/** Replaces content-bearing fields (at any depth ≤ 4) by `[redacted: N bytes]`. Pure. */
export function redactContent(fields: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if ((CONTENT_FIELDS as readonly string[]).includes(key)) out[key] = `[redacted: ${byteLength(value)} bytes]`;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value) && depth < 4)
      out[key] = redactContent(value as Record<string, unknown>, depth + 1);
    else out[key] = value;
  }
  return out;
}

/** Shifts `main.log` → `main.1.log` → … → `main.<keep>.log`, dropping the oldest. */
export function rotateLogFiles(file: string, keep: number): void {
  const { dir, name, ext } = parse(file);
  const generation = (n: number) => join(dir, `${name}.${n}${ext}`);
  rmSync(generation(keep), { force: true });
  for (let n = keep - 1; n >= 1; n--) if (existsSync(generation(n))) renameSync(generation(n), generation(n + 1));
  if (keep >= 1) renameSync(file, generation(1));
  else rmSync(file, { force: true });
}

export function createAppLog(options: AppLogOptions): AppLog {
  const path = join(options.logsDir, 'main.log');
  const keep = options.keep ?? 5;
  const level = options.level ?? 'info';
  // A logger of our own: the library's default instance stays untouched (no shared state).
  const logger = log.create({ logId: `agentteam-${path}` });
  logger.transports.file.resolvePathFn = () => path;
  logger.transports.file.level = level;
  logger.transports.file.maxSize = options.maxSize ?? 1024 * 1024;
  logger.transports.file.archiveLogFn = (file) => {
    try {
      rotateLogFiles(file.path, keep);
    } catch {
      // Rotation failing (a locked file on Windows) must not stop logging or grow the file forever.
      file.clear();
    }
  };
  logger.transports.console.level = options.console === true ? level : false;
  // electron-log/main forwards every line to all renderer windows in development (its ipc
  // transport) and can post lines to a URL (remote): log lines stay in the main process.
  if (logger.transports.ipc !== undefined) logger.transports.ipc.level = false;
  if (logger.transports.remote !== undefined) logger.transports.remote.level = false;

  const write = (level: AppLogLevel, message: string, fields?: Record<string, unknown>) => {
    // debug may carry content for local diagnosis; it is off unless asked for.
    const safe = fields === undefined ? undefined : level === 'debug' ? fields : redactContent(fields);
    if (safe === undefined) logger[level](message);
    else logger[level](message, safe);
  };
  return {
    path,
    debugEnabled: level === 'debug',
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    debug: (m, f) => write('debug', m, f),
  };
}
