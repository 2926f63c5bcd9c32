/**
 * issue 41 with the real Codex (fake model): its shell reads nothing of the daemon's state in the
 * data dir — the serve token, the operator key, the store, every agent's runtime folder — under
 * `read-only`, `ask` and `auto-edit`. Codex's sandbox alone (`read-only` / `workspace-write`) reads the whole
 * disk; the daemon's permission profile (codex-config.ts) denies those paths to every command it
 * runs. The model runs `cat <secret>` in the sandbox as a model does by default
 * (`[[sandboxed-shell:…]]`, Codex's `exec_command`); if Codex asks
 * the operator to run it outside the sandbox, the operator denies. The secret must never reach the
 * model nor the reply, also on the thread resumed after a daemon restart. A file in the agent's
 * own workspace stays readable (the shell works).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import { filter } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/contract.js';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';

describe.skipIf(process.platform !== 'linux').each(['read-only', 'ask', 'auto-edit'] as const)(
  'codex, permissions "%s"',
  (permissions) => {
    let h: DaemonHarness;
    let denier: Subscription | undefined;
    const asked: string[] = [];
    beforeAll(async () => {
      h = await DaemonHarness.start('codex', { agentConfig: { permissions } });
      await h.ready(60_000);
      denyAsked();
    }, 150_000);
    afterAll(async () => {
      denier?.unsubscribe();
      await h?.dispose();
    }, 60_000);

    /** Whatever Codex asks to run outside its sandbox (an escalation after "Permission denied") is denied. */
    function denyAsked(): void {
      denier?.unsubscribe();
      denier = h.daemon.events$
        .pipe(
          filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'),
          filter((e) => e.payload.status === 'pending'),
        )
        .subscribe((e) => {
          asked.push(e.payload.summary);
          void h.api['approvals.answer']({ id: e.payload.id, decision: 'deny' });
        });
    }

    /** Runs `cat path` through Codex's shell; resolves with the agent's reply. */
    async function catThrough(path: string): Promise<string> {
      const { wakeToken } = await h.send('#general', `[[sandboxed-shell:cat ${path}]] read it`);
      const wake = await h.terminal(wakeToken, 120_000);
      expect(wake.status).toBe('reply_sent');
      const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
      return messages.filter((m) => m.authorKind === 'agent').at(-1)?.content ?? '';
    }

    it(
      "the serve token, the operator key and an agent's runtime folder are not read; its workspace is",
      { timeout: 400_000 },
      async () => {
        const own = `workspace-file-${permissions}-4711`;
        writeFileSync(join(h.workspace, 'notes.txt'), `${own}\n`);
        expect(await catThrough(join(h.workspace, 'notes.txt'))).toContain(own);

        // The policy's own sandbox is kept: a write in the workspace runs unasked only under auto-edit.
        await catThrough(`${join(h.workspace, 'notes.txt')}; touch ${join(h.workspace, 'written.txt')}`);
        expect(existsSync(join(h.workspace, 'written.txt'))).toBe(permissions === 'auto-edit');

        const secrets = [
          join(h.dir, 'serve-token'),
          join(h.dir, 'operator-key'),
          join(h.dir, 'runtimes', h.agentId, 'planted-secret'),
        ].map((path, i) => ({ path, secret: `secret-${permissions}-${i}-0b7f3c9e` }));
        for (const { path, secret } of secrets) writeFileSync(path, `${secret}\n`, { mode: 0o600 });
        for (const { path, secret } of secrets) {
          const reply = await catThrough(path);
          expect(reply).toContain('Shell result');
          expect(reply).not.toContain(secret);
          expect(reply).toMatch(/exited with code [1-9]|denied|rejected/i);
        }
        // A daemon restart resumes the stored thread (thread/resume): the profile holds there too.
        await h.restart();
        await h.ready(60_000);
        denyAsked();
        const [first] = secrets;
        if (first === undefined) throw new Error('no secret planted');
        expect(await catThrough(first.path)).not.toContain(first.secret);
        // The stored thread was resumed, not replaced (the driver warns when Codex refuses the resume).
        expect(h.logLines.map((l) => l.message)).not.toContain('codex: thread/resume failed; starting a fresh thread');
        // Nothing of any secret reached the model in any request (the command's output is its input).
        const seen = JSON.stringify(h.model.requests.map((r) => r.body));
        for (const { secret } of secrets) expect(seen).not.toContain(secret);
        // An escalation, if Codex asked for one, was a question to the operator (denied above), never a silent read.
        for (const summary of asked) expect(summary).toMatch(/cat /);
      },
    );
  },
);
