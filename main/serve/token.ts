/**
 * The bearer token of `agentteam serve`: random, stored in `<data-dir>/serve-token` with mode
 * 0600 and reused across restarts, so a bookmarked URL and the CLI keep working.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
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
 * Held in memory and printed once; never stored, so no file an agent can read holds it.
 */
export function newOperatorKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(expected: string, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
