/**
 * The bearer token of `agentteam serve`: random, stored in `<data-dir>/serve-token` with mode
 * 0600 and reused across restarts, so a bookmarked URL and the CLI keep working.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const TOKEN_FILE = 'serve-token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/** Path of the token file in a data dir. */
export function tokenPath(dataDir: string): string {
  return join(dataDir, TOKEN_FILE);
}

/** Reads the stored token, or null when there is none (or it is not a token this code wrote). */
export async function readToken(dataDir: string): Promise<string | null> {
  try {
    const text = (await readFile(tokenPath(dataDir), 'utf8')).trim();
    return TOKEN_SHAPE.test(text) ? text : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The stored token, creating it (256 random bits, base64url, file mode 0600) on first use. */
export async function loadOrCreateToken(dataDir: string): Promise<string> {
  const existing = await readToken(dataDir);
  if (existing !== null) {
    // Tighten a file someone loosened by hand: the token is a credential.
    await chmod(tokenPath(dataDir), 0o600);
    return existing;
  }
  const token = randomBytes(32).toString('base64url');
  await writeFile(tokenPath(dataDir), `${token}\n`, { mode: 0o600 });
  await chmod(tokenPath(dataDir), 0o600);
  return token;
}

/**
 * issue 29: a fresh operator key for one start of `agentteam serve` (256 random bits, base64url).
 * Held in memory and, issue 41, in `<data-dir>/operator-key` (writeOperatorKey) for the operator's CLI.
 */
export function newOperatorKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * issue 41: where this start's operator key is kept for the operator's CLI, instead of stdout (a
 * same-user process reads `/proc/<daemon>/fd/1` when it is a file or the journal) or an `export`
 * line (shell history). In the data dir, with the daemon's other secrets: no workspace may overlap
 * it (runtime/workspace.ts) and Claude Code's and OpenCode's file tools are denied it
 * (`toolDeniedPaths`), and Codex's sandboxed commands too (its permission profile,
 * runtime/codex/codex-config.ts). Mode 0600,
 * written fresh at each start, removed at a clean stop.
 */
export const OPERATOR_KEY_FILE = 'operator-key';

export function operatorKeyPath(dataDir: string): string {
  return join(dataDir, OPERATOR_KEY_FILE);
}

/**
 * Writes the key as a new 0600 file: an old file (a loosened one, or a symlink someone planted) is
 * removed first and `wx` refuses to follow anything that reappears in between.
 */
export async function writeOperatorKey(dataDir: string, key: string): Promise<void> {
  const path = operatorKeyPath(dataDir);
  await rm(path, { force: true });
  await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
}

/** The key of the running start, or null when there is none (no daemon, or a file this code did not write). */
export async function readOperatorKey(dataDir: string): Promise<string | null> {
  try {
    const text = (await readFile(operatorKeyPath(dataDir), 'utf8')).trim();
    return TOKEN_SHAPE.test(text) ? text : null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Not there (no daemon) or not ours to read (another user's data dir): no operator key.
    if (code === 'ENOENT' || code === 'EACCES') return null;
    throw err;
  }
}

/** Removes the key file at a clean stop, if it still holds this start's key (a later start's stays). */
export async function removeOperatorKey(dataDir: string, key: string): Promise<void> {
  if ((await readOperatorKey(dataDir)) === key) await rm(operatorKeyPath(dataDir), { force: true });
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(expected: string, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
