import { describe, expect, it } from 'vitest';
import { PromptQueue } from '../../../../../main/daemon/runtime/prompt-queue.js';
import type { DeliverResult } from '../../../../../main/daemon/runtime/runtime-adapter.js';

function queue(refuse: (text: string) => boolean = () => false) {
  const started: string[] = [];
  const q = new PromptQueue(async (text): Promise<DeliverResult> => {
    started.push(text);
    return refuse(text) ? { ok: false, code: 'write_failed', message: 'no' } : { ok: true };
  });
  return { q, started };
}

describe('PromptQueue: one turn per prompt', () => {
  it('starts the next prompt only after the running turn ended', async () => {
    const { q, started } = queue();
    const a = q.submit('a');
    const b = q.submit('b');
    expect(await a).toEqual({ ok: true });
    await Promise.resolve();
    expect(started).toEqual(['a']);
    expect(q.busy).toBe(true);
    q.turnEnded();
    expect(await b).toEqual({ ok: true });
    expect(started).toEqual(['a', 'b']);
  });

  it('a refused prompt runs no turn, so the next one starts at once', async () => {
    const { q, started } = queue((t) => t === 'a');
    const a = q.submit('a');
    const b = q.submit('b');
    expect(await a).toMatchObject({ ok: false, code: 'write_failed' });
    expect(await b).toMatchObject({ ok: true });
    expect(started).toEqual(['a', 'b']);
  });

  it('submitFirst goes ahead of every waiting prompt (a final-check continues the turn that ended)', async () => {
    const { q, started } = queue();
    await q.submit('delivery 1');
    const waiting = q.submit('delivery 2');
    const check = q.submitFirst('final-check');
    q.turnEnded();
    expect(await check).toEqual({ ok: true });
    expect(started).toEqual(['delivery 1', 'final-check']);
    q.turnEnded();
    await waiting;
    expect(started).toEqual(['delivery 1', 'final-check', 'delivery 2']);
  });

  it('clear refuses waiting prompts and forgets the running turn', async () => {
    const { q } = queue();
    await q.submit('a');
    const b = q.submit('b');
    q.clear({ ok: false, code: 'not_running', message: 'gone' });
    expect(await b).toMatchObject({ ok: false, code: 'not_running', message: 'gone' });
    expect(q.busy).toBe(false);
  });

  it('issue 38: a waiting prompt whose wakes are no longer due is withdrawn, never started; the next one starts', async () => {
    const { q, started } = queue();
    await q.submit('running');
    let due = true;
    const paused = q.submit('paused delivery', () => due);
    const later = q.submit('later delivery', () => true);
    due = false; // a usage pause took its wakes back while it waited
    q.turnEnded();
    expect(await paused).toMatchObject({ ok: false, code: 'withdrawn' });
    expect(await later).toEqual({ ok: true });
    expect(started).toEqual(['running', 'later delivery']);
  });
});
