import { describe, expect, it } from 'vitest';
import type { RuntimePrompt, RuntimeResult, SubmitReceipt } from '../../../../../main/daemon/runtime/agent-runtime.js';
import { PromptQueue } from '../../../../../main/daemon/runtime/prompt-queue.js';

const p = (text: string): RuntimePrompt => ({ kind: 'delivery', text });

function queue(refuse: (text: string) => boolean = () => false) {
  const started: string[] = [];
  const q = new PromptQueue(async (prompt): Promise<RuntimeResult<SubmitReceipt>> => {
    started.push(prompt.text);
    return refuse(prompt.text)
      ? { ok: false, code: 'submit_failed', message: 'no' }
      : { ok: true, value: { generation: 1, turnId: prompt.text } };
  });
  return { q, started };
}

describe('PromptQueue: one turn per prompt', () => {
  it('starts the next prompt only after the running turn ended', async () => {
    const { q, started } = queue();
    const a = q.submit(p('a'));
    const b = q.submit(p('b'));
    expect(await a).toMatchObject({ ok: true, value: { turnId: 'a' } });
    await Promise.resolve();
    expect(started).toEqual(['a']);
    expect(q.busy).toBe(true);
    q.turnEnded();
    expect(await b).toMatchObject({ ok: true, value: { turnId: 'b' } });
    expect(started).toEqual(['a', 'b']);
  });

  it('a refused prompt runs no turn, so the next one starts at once', async () => {
    const { q, started } = queue((t) => t === 'a');
    const a = q.submit(p('a'));
    const b = q.submit(p('b'));
    expect(await a).toMatchObject({ ok: false, code: 'submit_failed' });
    expect(await b).toMatchObject({ ok: true });
    expect(started).toEqual(['a', 'b']);
  });

  it('dropWaiting refuses waiting prompts but keeps the running turn; clear forgets it too', async () => {
    const { q } = queue();
    await q.submit(p('a'));
    const b = q.submit(p('b'));
    q.dropWaiting({ ok: false, code: 'interrupt_failed', message: 'dropped' });
    expect(await b).toMatchObject({ ok: false, code: 'interrupt_failed' });
    expect(q.busy).toBe(true);
    q.clear({ ok: false, code: 'process_exited', message: 'gone' });
    expect(q.busy).toBe(false);
  });
});
