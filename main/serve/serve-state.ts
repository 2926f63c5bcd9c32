/**
 * `<data-dir>/serve.json`: where a running `agentteam serve` listens, so the CLI subcommands
 * (`send`, `wakes`, `messages`) can find it. Written at start (mode 0600), removed at shutdown;
 * a file left by a killed process is recognised by its dead pid.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const SERVE_STATE_FILE = 'serve.json';

export const ServeStateSchema = z.object({
  port: z.number().int().min(1).max(65_535),
  pid: z.number().int().positive(),
  startedAt: z.string(),
});
export type ServeState = z.infer<typeof ServeStateSchema>;

export function serveStatePath(dataDir: string): string {
  return join(dataDir, SERVE_STATE_FILE);
}

/** The recorded state, or null when there is none or it is unreadable. */
export async function readServeState(dataDir: string): Promise<ServeState | null> {
  try {
    const parsed = ServeStateSchema.safeParse(JSON.parse(await readFile(serveStatePath(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function writeServeState(dataDir: string, state: ServeState): Promise<void> {
  await writeFile(serveStatePath(dataDir), `${JSON.stringify(state)}\n`, { mode: 0o600 });
}

/** Removes the state file only if it still names `pid` (a newer server may have replaced it). */
export async function removeServeState(dataDir: string, pid: number): Promise<void> {
  const state = await readServeState(dataDir);
  if (state !== null && state.pid !== pid) return;
  await rm(serveStatePath(dataDir), { force: true });
}

/** Whether a process with this pid exists (signal 0 probes without signalling). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
