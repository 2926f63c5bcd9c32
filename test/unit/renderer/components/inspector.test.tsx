// @vitest-environment happy-dom
/** The inspector of one wake: its timeline in plain words, what the agent was sent, Esc closes. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PromptInput, Wake, WakeEvent } from '../../../../shared/api/contract.js';
import { Inspector, type InspectorProps } from '../../../../renderer/src/components/inspector.js';
import { agentOf, wakeOf } from '../../../fixtures/contract-values.js';
import { ok, scriptedClientApi, type CallScript } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

const at = '2026-03-02T09:05:00.000Z';
const event = (over: Partial<WakeEvent>): WakeEvent => ({
  wakeToken: 'wk_1a2b3c4d5e',
  kind: 'status',
  status: null,
  reason: null,
  detail: null,
  at,
  ...over,
});
const prompt = (over: Partial<PromptInput>): PromptInput => ({
  id: 'p1',
  seq: 1,
  agentId: 'claude',
  wakeTokens: ['wk_1a2b3c4d5e'],
  kind: 'turn_context',
  text: 'hello',
  at,
  ...over,
});
const wake = wakeOf({ wakeToken: 'wk_1a2b3c4d5e', status: 'reply_sent', endedAt: at });
const inspected = {
  wake,
  events: [
    event({ status: 'queued' }),
    event({ status: 'delivered' }),
    event({ kind: 'final_check', reason: 'signal_only' }),
    event({ status: 'reply_sent' }),
  ],
  promptInputs: [
    prompt({ id: 'p1', text: '<b>Do</b> the thing' }),
    prompt({ id: 'p2', seq: 2, kind: 'final_check', text: 'Did you reply?' }),
  ],
  continuedIn: null as string | null,
  continues: [] as string[],
  audit: [],
};

function setup(over: Partial<InspectorProps> = {}, script: CallScript = {}) {
  const fake = scriptedClientApi({
    'wakes.inspect': () => ok(inspected),
    'approvals.list': () => ok([]),
    ...script,
  });
  const props: InspectorProps = {
    api: fake.api,
    wakeToken: 'wk_1a2b3c4d5e',
    wake,
    agents: [agentOf()],
    language: 'en',
    onClose: vi.fn(),
    ...over,
  };
  const view = render(<Inspector {...props} />);
  return { fake, props, view };
}

describe('Inspector', () => {
  it('is titled by agent and conversation, with its status chip, start time and short wake id', async () => {
    setup();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Claude · #general');
    const summary = document.querySelector('.inspector-summary') as HTMLElement;
    expect(summary.querySelector('.chip')?.getAttribute('data-status')).toBe('reply_sent');
    expect(summary.querySelector('.chip-text')?.textContent).toBe('Replied');
    expect(
      within(summary).getByText('Started').nextElementSibling?.querySelector('time')?.getAttribute('dateTime'),
    ).toBe(wake.createdAt);
    expect(within(summary).getByText('Wake id')).toBeTruthy();
    expect(summary.querySelector('.wake-id')?.textContent).toBe('1a2b3c4d');
    expect(summary.querySelector('.wake-id')?.getAttribute('title')).toBe('wk_1a2b3c4d5e');
    await screen.findByText('Delivered to Claude');
  });

  it('says Loading… until it knows the wake', () => {
    setup({ wake: undefined }, { 'wakes.inspect': () => new Promise(() => undefined) });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Loading…');
    expect(document.querySelector('.inspector-summary')).toBeNull();
  });

  it('tells the timeline in plain words, never a bare status token', async () => {
    setup();
    await screen.findByText('Delivered to Claude');
    const rows = [...document.querySelectorAll('ol.timeline li')];
    expect(rows.map((r) => r.querySelector('.timeline-kind')?.textContent)).toEqual([
      'Queued',
      'Delivered to Claude',
      'Final check sent',
      'Replied',
    ]);
    expect(rows[2]?.querySelector('.timeline-reason')?.textContent).toBe('A notice only — no reply expected');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['queued', 'delivered', null, 'reply_sent']);
  });

  it('a native compaction is one timeline line between the statuses (issue 24), in both languages', async () => {
    const compacted = {
      ...inspected,
      events: [
        event({ status: 'queued' }),
        event({ status: 'delivered' }),
        event({ kind: 'compaction' }),
        event({ status: 'reply_sent' }),
      ],
    };
    setup({}, { 'wakes.inspect': () => ok(compacted) });
    await screen.findByText('Context compacted — still working');
    cleanup();
    setup({ language: 'zh-CN' }, { 'wakes.inspect': () => ok(compacted) });
    await screen.findByText('上下文已压缩，仍在处理');
  });

  it('issue 24: a cross-target send shows among the events in time order, in plain words (en + zh-CN)', async () => {
    const later = '2026-03-02T09:05:03.000Z';
    const script: CallScript = {
      'wakes.inspect': () =>
        ok({
          ...inspected,
          events: [
            event({ status: 'queued' }),
            event({ status: 'delivered' }),
            event({ status: 'reply_sent', at: '2026-03-02T09:05:04.000Z' }),
          ],
          audit: [
            {
              id: 1,
              agentId: 'claude',
              agentName: 'Claude',
              kind: 'cross_target_send',
              target: '#ops',
              messageId: 'msg_7',
              wakeTokens: ['wk_1a2b3c4d5e'],
              at: later,
            },
          ],
        }),
    };
    setup({}, script);
    await screen.findByText('Sent to #ops — cross-target');
    const rows = [...document.querySelectorAll('ol.timeline li')];
    expect(rows.map((r) => r.querySelector('.timeline-kind')?.textContent)).toEqual([
      'Queued',
      'Delivered to Claude',
      'Sent to #ops — cross-target',
      'Replied',
    ]);
    expect(rows[2]?.getAttribute('data-kind')).toBe('cross_target_send');
    expect(rows[2]?.querySelector('time')?.getAttribute('dateTime')).toBe(later);
    cleanup();
    setup({ language: 'zh-CN' }, script);
    expect((await screen.findByText('已发送到 #ops — 跨目标发送')).className).toBe('timeline-kind');
  });

  it('shows what the agent was sent, in order, as text never markup', async () => {
    setup();
    expect((await screen.findByRole('heading', { name: 'What the agent was sent (2)' })).tagName).toBe('H3');
    const inputs = [...document.querySelectorAll('ol.prompt-inputs li')];
    expect(inputs.map((i) => i.querySelector('.prompt-kind')?.textContent)).toEqual(['Message', 'Final check']);
    const text = inputs[0]?.querySelector('pre') as HTMLElement;
    expect(text.textContent).toBe('<b>Do</b> the thing');
    expect(text.querySelector('b')).toBeNull();
  });

  it('says when nothing was sent yet', async () => {
    setup({}, { 'wakes.inspect': () => ok({ ...inspected, promptInputs: [] }) });
    expect(await screen.findByText('Nothing has been sent to the agent for this yet.')).toBeTruthy();
  });

  it('a wake waiting for approval says so, never "Working"', () => {
    setup({ waiting: true, wake: wakeOf({ wakeToken: 'wk_1a2b3c4d5e' }) });
    const chip = document.querySelector('.inspector-summary .chip') as HTMLElement;
    expect(chip.getAttribute('data-status')).toBe('waiting_approval');
    expect(chip.textContent).toBe('✋Waiting for your approval');
  });

  it("shows the daemon's refusal", async () => {
    setup({}, { 'wakes.inspect': () => ({ ok: false, code: 'unknown_wake', message: 'no such wake' }) });
    // The inspector's own alert (the review pane below says its own refusal in another one).
    await vi.waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Something went wrong: no such wake'),
    );
  });

  it('asks again when the live wake changes', async () => {
    const { fake, props, view } = setup();
    await vi.waitFor(() => expect(fake.requestsOf('wakes.inspect')).toHaveLength(1));
    view.rerender(<Inspector {...props} wake={{ ...wake, beacons: 1 } satisfies Wake} />);
    await vi.waitFor(() => expect(fake.requestsOf('wakes.inspect')).toHaveLength(2));
    expect(fake.requestsOf('wakes.inspect')[1]).toEqual({ wakeToken: 'wk_1a2b3c4d5e' });
  });

  it('focuses Close on open; Close and Escape close it', async () => {
    const { props } = setup();
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    await userEvent.keyboard('{Escape}');
    expect(props.onClose).toHaveBeenCalledTimes(1);
    await userEvent.click(close);
    expect(props.onClose).toHaveBeenCalledTimes(2);
  });

  it('issue 24: a failed original says it was continued, in plain words, and links to the recovery wake that continues it', async () => {
    const failed = wakeOf({
      wakeToken: 'wk_1a2b3c4d5e',
      status: 'failed',
      reason: 'daemon_restarted',
      detail: 'AgentTeam restarted while the agent was working on this wake',
      recoveries: 1,
      endedAt: at,
    });
    const onOpenWake = vi.fn();
    setup(
      { wake: failed, onOpenWake },
      { 'wakes.inspect': () => ok({ ...inspected, wake: failed, continuedIn: 'wk_recovery_9f8e7d6c5b' }) },
    );
    const link = await screen.findByRole('button', { name: 'Continued in wake 9f8e7d6c' });
    expect(screen.getByText('AgentTeam restarted while Claude Code worked — continued in a new wake.')).toBeTruthy();
    await userEvent.click(link);
    expect(onOpenWake).toHaveBeenCalledWith('wk_recovery_9f8e7d6c5b');
  });

  it('issue 24: a recovery wake links to each wake it continues (en, zh-CN)', async () => {
    const recovery = wakeOf({ wakeToken: 'wk_recovery_9f8e7d6c5b', messageId: 'msg_recovery_9f8e7d6c5b' });
    const script = { 'wakes.inspect': () => ok({ ...inspected, wake: recovery, continues: ['wk_1a2b3c4d5e'] }) };
    const onOpenWake = vi.fn();
    const { view } = setup({ wakeToken: recovery.wakeToken, wake: recovery, onOpenWake }, script);
    await userEvent.click(await screen.findByRole('button', { name: 'Continues wake 1a2b3c4d' }));
    expect(onOpenWake).toHaveBeenCalledWith('wk_1a2b3c4d5e');
    view.unmount();
    setup({ wakeToken: recovery.wakeToken, wake: recovery, language: 'zh-CN', onOpenWake }, script);
    expect(await screen.findByRole('button', { name: '继续唤醒 1a2b3c4d' })).toBeTruthy();
  });

  it('speaks 简体中文', async () => {
    setup({ language: 'zh-CN' });
    expect(await screen.findByText('已送达 Claude')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '时间线' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '关闭' })).toBeTruthy();
  });
});

describe('Inspector: delivery per channel (issue 40 item 7)', () => {
  const withDeliveries = {
    ...inspected,
    events: [
      ...inspected.events,
      event({ kind: 'delivery', detail: 'delivered · 1 attempt' }),
      event({ kind: 'delivery', detail: 'telegram: failed_final · 2 attempts · not_written: ENOTFOUND' }),
    ],
  };

  it('lists each channel with its status, attempts and the last error as text (en and 简体中文)', async () => {
    setup({}, { 'wakes.inspect': () => ok(withDeliveries) });
    const section = await screen.findByRole('region', { name: 'Delivery by channel' });
    const rows = [...section.querySelectorAll('li')];
    expect(rows.map((r) => [r.getAttribute('data-channel'), r.getAttribute('data-state')])).toEqual([
      ['local', 'delivered'],
      ['telegram', 'failed_final'],
    ]);
    expect(rows[0]?.textContent).toBe('Local (this app)·Delivered·1 attempt');
    expect(rows[1]?.textContent).toBe(
      'Telegram·Not delivered — kept for re-delivery·2 attempts' + 'Last error: not_written: ENOTFOUND',
    );
    expect(rows[1]?.querySelector('code')?.textContent).toBe('not_written: ENOTFOUND');
    cleanup();
    setup({ language: 'zh-CN' }, { 'wakes.inspect': () => ok(withDeliveries) });
    const zh = await screen.findByRole('region', { name: '各渠道的投递' });
    expect(zh.querySelector('li[data-channel="telegram"]')?.textContent).toMatch(
      /^Telegram·未送达，已保留待重新投递·尝试 2 次/,
    );
  });

  it('has no delivery section before any reply was delivered', async () => {
    setup();
    await screen.findByText('Delivered to Claude');
    expect(document.querySelector('.channel-delivery')).toBeNull();
  });
});
