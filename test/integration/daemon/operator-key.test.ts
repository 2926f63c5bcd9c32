/**
 * issue 29 end to end: a real `agentteam serve` (child process, demo agent) and the real CLI in
 * other processes. A process holding only what an agent's command can read — the 0600 serve token
 * in the data dir — is refused `approvals.answer` with a clear error and the approval stays
 * pending; the operator, with the key `serve` printed, answers it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDaemon } from '../../../main/serve/daemon-client.js';
import { agentState, serveChild, type ServeChild } from '../../fixtures/serve-child.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'main', 'serve', 'cli.ts');

let dataDir: string;
let serve: ServeChild;

/** The real CLI in its own process, with `env` only (no key unless given). */
function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args, '--data-dir', dataDir], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: join(dataDir, 'home'), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentteam-operator-key-'));
  await writeFile(
    join(dataDir, 'agentteam.json'),
    JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }] }),
  );
  serve = await serveChild(dataDir);
  await agentState(dataDir, serve, 'demo', 'idle', 30_000);
}, 60_000);
afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await rm(dataDir, { recursive: true, force: true });
});

it('the serve token alone cannot answer an approval; the printed operator key can', { timeout: 90_000 }, async () => {
  // The operator's message asks the demo to write a file: a pending approval.
  const c = await connectDaemon(dataDir);
  if (!c.ok) throw new Error(c.message);
  try {
    expect((await c.client.call('messages.send', { target: '#general', content: '@demo /approve' })).ok).toBe(true);
    let pending: string | undefined;
    for (let i = 0; i < 100 && pending === undefined; i++) {
      const r = await c.client.call('approvals.list', { status: 'pending' });
      pending = r.ok ? r.value[0]?.id : undefined;
      if (pending === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    expect(pending).toBeDefined();
    const id = pending ?? '';

    // What a process an agent started has: the token file (same user), no operator key.
    for (const args of [
      ['approve', id, '--scope', 'always'],
      ['deny', id],
      ['revoke', '--agent', 'demo', 'Bash(ls)'],
    ]) {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/is the operator's to make: .* never for the serve token alone.*\(operator_only\)/);
    }
    const still = await c.client.call('approvals.list', { status: 'pending' });
    expect(still.ok && still.value.map((a) => a.id)).toEqual([id]);

    // The operator, with the key `agentteam serve` printed at its start.
    const ok = await cli(['approve', id], { AGENTTEAM_OPERATOR_KEY: serve.operatorKey });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`${id} allowed`);
  } finally {
    c.client.close();
  }
});
