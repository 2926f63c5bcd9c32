/**
 * issue 28: approvals of the ACP presets through `session/request_permission` (real CLIs, fake
 * model, `permissions: "ask"`): the CLI's shell question becomes a durable approval the operator
 * answers; allow → the command ran and the reply arrives via message_send; deny → it did not run.
 * An "always" answer is recorded by the daemon and never written into the workspace (Qwen's
 * `proceed_always_project` would write `<cwd>/.qwen/settings.json`). An interrupt while the operator
 * has not answered answers the agent's request `cancelled` (ACP), so the turn ends by the cancel.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpPreset } from '../../../shared/config.js';
import { RuntimeHarness } from '../../fixtures/runtime-harness.js';

const PRESETS: readonly AcpPreset[] = ['gemini', 'qwen', 'copilot'];
const CASE_TIMEOUT = 120_000;

describe.each(PRESETS)('acp preset %s approvals (real CLI, fake model, permissions "ask")', (preset) => {
  let h: RuntimeHarness;

  beforeAll(async () => {
    h = await RuntimeHarness.start('acp', { preset, permissions: 'ask' });
  }, 240_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  it(
    "allow (always) → the command runs → reply_sent; the grant is the daemon's, nothing written into the workspace",
    async () => {
      const wake = h.post('[[shell:touch approved.txt]] Please create the file.', '#ap-allow');
      const asked = await h.approval((a) => a.status === 'pending' && a.wakeTokens.includes(wake));
      expect(asked.kind).toBe('command');
      expect(asked.summary).toContain('touch approved.txt');
      expect(existsSync(join(h.cwd, 'approved.txt'))).toBe(false);
      h.approvals.answer(asked.id, 'allow', 'always');
      const done = await h.terminal(wake);
      expect(done.status).toBe('reply_sent');
      expect(existsSync(join(h.cwd, 'approved.txt'))).toBe(true);
      expect(h.store.approvals.get(asked.id)?.status).toBe('allowed');
      expect(existsSync(join(h.cwd, '.qwen'))).toBe(false);
    },
    CASE_TIMEOUT,
  );

  it(
    'deny → the command did not run and the wake still ends with one terminal status',
    async () => {
      const wake = h.post('[[shell:touch denied.txt]] Please create the other file.', '#ap-deny');
      const asked = await h.approval((a) => a.status === 'pending' && a.wakeTokens.includes(wake));
      h.approvals.answer(asked.id, 'deny', 'once', 'not in this folder');
      const done = await h.terminal(wake);
      expect(['reply_sent', 'completed_without_visible_reply']).toContain(done.status);
      expect(existsSync(join(h.cwd, 'denied.txt'))).toBe(false);
      expect(h.store.approvals.get(asked.id)?.status).toBe('denied');
    },
    CASE_TIMEOUT,
  );

  it(
    'interrupt while the approval is pending → the permission request is answered cancelled and the turn ends by the cancel, not the kill',
    async () => {
      const wake = h.post('[[shell:touch interrupted.txt]] Please create a third file.', '#ap-interrupt');
      await h.approval((a) => a.status === 'pending' && a.wakeTokens.includes(wake));
      const turnEnd = h.nextRuntimeEvent((e) => e.type === 'turn_end');
      await h.adapter.interrupt();
      const end = await turnEnd;
      expect(end.type === 'turn_end' && end.outcome).toBe('interrupted');
      expect(h.logLines.filter((l) => l.includes('did not end after session/cancel'))).toEqual([]);
      expect(h.inner.processGroupAlive()).toBe(true);
      expect((await h.terminal(wake)).status).toBe('failed');
      expect(existsSync(join(h.cwd, 'interrupted.txt'))).toBe(false);
    },
    CASE_TIMEOUT,
  );
});
