// @vitest-environment happy-dom
/** The one status area: this conversation's wake chips (a chip opens the inspector), failure details on demand, alerts. */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '../../../../shared/api/contract.js';
import { StatusArea, type StatusAreaProps } from '../../../../renderer/src/components/status-area.js';
import { WakeBook } from '../../../../renderer/src/status/wake-store.js';
import { wakeOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

const alertOf = (over: Partial<Alert> = {}): Alert => ({
  id: 'al_1',
  kind: 'delivery_failed',
  target: '#general',
  wakeToken: null,
  responseId: null,
  message: 'the daemon says so',
  at: new Date().toISOString(),
  ...over,
});

function setup(over: Partial<StatusAreaProps> = {}) {
  const wakes = new WakeBook();
  const props: StatusAreaProps = {
    target: '#general',
    wakes,
    alerts: [],
    language: 'en',
    onOpenWake: vi.fn(),
    onDismissAlert: vi.fn(),
    dismissed: new Set(),
    ...over,
  };
  const view = render(<StatusArea {...props} />);
  return { props, view, book: props.wakes };
}
const chip = (token: string) => document.querySelector(`[data-wake="${token}"]`) as HTMLElement | null;

describe('StatusArea', () => {
  it('is the live region "Agent status", named by its pane when asked (en and 简体中文)', () => {
    setup();
    expect(screen.getByRole('status', { name: 'Agent status' }).getAttribute('data-target')).toBe('#general');
    cleanup();
    setup({ label: 'Thread status' });
    expect(screen.getByRole('status', { name: 'Thread status' })).toBeTruthy();
    cleanup();
    setup({ language: 'zh-CN' });
    expect(screen.getByRole('status', { name: '智能体状态' })).toBeTruthy();
  });

  it("shows this conversation's active wakes, each chip with its raw status, and follows their updates", () => {
    const wakes = new WakeBook();
    wakes.applyAll([
      wakeOf({ wakeToken: 'wk_1', status: 'delivered' }),
      wakeOf({ wakeToken: 'wk_2', status: 'queued', agentName: 'Codex', createdAt: '2026-03-02T09:06:00.000Z' }),
      wakeOf({ wakeToken: 'wk_x', target: '#other' }),
    ]);
    setup({ wakes });
    expect(chip('wk_x')).toBeNull();
    const first = chip('wk_1') as HTMLElement;
    expect(first.getAttribute('data-status')).toBe('delivered');
    expect(first.querySelector('.chip-agent')?.textContent).toBe('Claude');
    expect(first.querySelector('.chip-text')?.textContent).toBe('Working');
    expect(first.querySelector('.chip-elapsed')?.getAttribute('aria-hidden')).toBe('true');
    expect(chip('wk_2')?.querySelector('.chip-text')?.textContent).toBe('Queued');
    act(() => void wakes.apply(wakeOf({ wakeToken: 'wk_1', status: 'delivered', beacons: 1 })));
    expect(chip('wk_1')?.querySelector('.chip-text')?.textContent).toBe('Working…');
  });

  it("issue 24: the local channel's own beacon and escalation words replace the default, and the chip keeps its elapsed time", () => {
    const wakes = new WakeBook();
    wakes.applyAll([
      wakeOf({ wakeToken: 'wk_1', status: 'delivered', beacons: 2 }),
      wakeOf({ wakeToken: 'wk_2', agentName: 'Codex', status: 'delivered', beacons: 5, escalated: true }),
    ]);
    setup({
      wakes,
      language: 'zh-CN',
      beaconWords: { beacon: '🧠 Still digging', escalation: '⏳ This one takes a while' },
    });
    // A leading copy of the chip's own icon is said once; the person's words are shown as written (not translated).
    expect(chip('wk_1')?.querySelector('.chip-text')?.textContent).toBe('Still digging');
    expect(chip('wk_1')?.querySelector('.chip-icon')?.textContent).toBe('🧠');
    expect(chip('wk_1')?.querySelector('.chip-elapsed')?.textContent).not.toBe('');
    expect(chip('wk_2')?.querySelector('.chip-text')?.textContent).toBe('⏳ This one takes a while');
    expect(chip('wk_2')?.querySelector('.chip-elapsed')?.textContent).not.toBe('');
  });

  it('issue 24: a no-response alert is a neutral status line beside the wake\'s own "Received — back to idle" chip', () => {
    const wakes = new WakeBook();
    wakes.apply(
      wakeOf({ status: 'completed_without_visible_reply', reason: 'no_reply', endedAt: '2026-03-02T09:06:00.000Z' }),
    );
    setup({ wakes, alerts: [alertOf({ id: 'al_n', kind: 'no_response', wakeToken: 'wk_1' })] });
    expect(chip('wk_1')?.querySelector('.chip-text')?.textContent).toBe('Received — back to idle');
    const line = document.querySelector('[data-alert="no_response"]') as HTMLElement;
    expect(line.getAttribute('data-alert-wake')).toBe('wk_1');
    expect(line.querySelector('.chip-agent')?.textContent).toBe('Claude');
    expect(line.querySelector('.chip-text')?.textContent).toBe('Turn ended without a message');
    expect(screen.getByRole('status').textContent).not.toMatch(/fail|did not|didn't|no reply|unanswered/i);
  });

  it('says the chip in 简体中文', () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf({ status: 'final_check_sent' }));
    setup({ wakes, language: 'zh-CN' });
    expect(chip('wk_1')?.querySelector('.chip-text')?.textContent).toBe('正在确认回复');
  });

  it('a chip opens the inspector of its wake from its button', async () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf());
    const { props } = setup({ wakes });
    const button = within(chip('wk_1') as HTMLElement).getByRole('button');
    await userEvent.click(button);
    expect(props.onOpenWake).toHaveBeenCalledExactlyOnceWith('wk_1', button);
  });

  it('a failed wake shows its details only when expanded: words first, the raw detail as text only on demand', async () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf({ status: 'failed', reason: 'auth_required', detail: '<b>Not logged in</b>' }));
    setup({ wakes });
    const details = screen.getByRole('button', { name: 'Details' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    expect(document.querySelector('.chip-detail-text')).toBeNull();
    await userEvent.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    const shown = document.getElementById(details.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(shown.querySelector('.failure-words')?.textContent).toMatch(/sign/i);
    // issue 40 item 5: the raw runtime line is not shown with the reason: only when Raw detail is opened.
    expect(shown.querySelector('.failure-raw')).toBeNull();
    expect(shown.textContent).not.toContain('Not logged in');
    const rawToggle = within(shown).getByRole('button', { name: 'Raw detail' });
    expect(rawToggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(rawToggle);
    expect(rawToggle.getAttribute('aria-expanded')).toBe('true');
    expect(shown.querySelector('.failure-raw')?.id).toBe(rawToggle.getAttribute('aria-controls'));
    expect(shown.querySelector('.failure-raw')?.textContent).toBe('<b>Not logged in</b>');
    expect(shown.querySelector('b')).toBeNull();
    await userEvent.click(details);
    expect(document.querySelector('.chip-detail-text')).toBeNull();
  });

  it('issue 40: a failure whose fix says "then Retry" has a Retry on its chip that checks the agent again', async () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf({ status: 'failed', reason: 'workspace_missing', detail: 'no such folder' }));
    const onRetry = vi.fn(() => Promise.resolve('Claude is ready now. Send the message again.'));
    setup({ wakes, onRetry });
    const retry = within(chip('wk_1') as HTMLElement).getByRole('button', { name: 'Retry Claude' });
    expect(retry.textContent).toBe('Retry');
    await userEvent.click(retry);
    expect(onRetry).toHaveBeenCalledExactlyOnceWith('claude');
    expect(await screen.findByText('Claude is ready now. Send the message again.')).toBeTruthy();
    cleanup();
    // A crash promises no Retry (it restarts on its own): none is offered.
    const crashed = new WakeBook();
    crashed.apply(wakeOf({ status: 'failed', reason: 'cli_exited', detail: 'exited' }));
    setup({ wakes: crashed, onRetry });
    expect(within(chip('wk_1') as HTMLElement).queryByRole('button', { name: 'Retry Claude' })).toBeNull();
  });

  it('only a failed chip has Details', () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf({ status: 'completed_without_visible_reply', endedAt: '2026-03-02T09:06:00.000Z' }));
    setup({ wakes });
    expect(chip('wk_1')?.querySelector('.chip-text')?.textContent).toBe('Received — back to idle');
    expect(screen.queryByRole('button', { name: 'Details' })).toBeNull();
  });

  it('a wake waiting for an approval gives its chip to the approval chip', () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf());
    setup({ wakes, waitingWakes: new Set(['wk_1']), approvalChips: <span data-testid="approval">✋</span> });
    expect(chip('wk_1')).toBeNull();
    expect(screen.getByTestId('approval')).toBeTruthy();
  });

  it('shows alerts in neutral words, naming the agent of a known wake; Dismiss calls back with the id', async () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf({ wakeToken: 'wk_9', status: 'reply_sent', endedAt: '2026-03-02T09:06:00.000Z' }));
    const { props } = setup({
      wakes,
      alerts: [alertOf({ id: 'al_7', wakeToken: 'wk_9', kind: 'delivery_uncertain' })],
    });
    const alert = document.querySelector('[data-alert="delivery_uncertain"]') as HTMLElement;
    expect(alert.getAttribute('data-alert-wake')).toBe('wk_9');
    expect(alert.querySelector('.chip-agent')?.textContent).toBe('Claude');
    expect(alert.querySelector('.chip-text')?.textContent).toBe('Delivery unconfirmed');
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(props.onDismissAlert).toHaveBeenCalledExactlyOnceWith('al_7');
  });

  it('hides dismissed alerts and those of other conversations', () => {
    setup({
      alerts: [alertOf({ id: 'a' }), alertOf({ id: 'b', kind: 'runtime_crashed' }), alertOf({ id: 'c', target: '#x' })],
      dismissed: new Set(['a']),
    });
    expect([...document.querySelectorAll('[data-alert]')].map((a) => a.getAttribute('data-alert'))).toEqual([
      'runtime_crashed',
    ]);
    expect(screen.getByText('Runtime stopped unexpectedly')).toBeTruthy();
  });
});

describe('StatusArea: one chip per addressed agent, no outcome hidden (issue 24)', () => {
  afterEach(() => localStorage.clear());

  const twoAgents = () => {
    const wakes = new WakeBook();
    wakes.applyAll([
      wakeOf({ wakeToken: 'wk_demo', agentId: 'demo', agentName: 'Demo', status: 'delivered' }),
      wakeOf({
        wakeToken: 'wk_claude',
        status: 'failed',
        reason: 'auth_required',
        createdAt: '2026-03-02T09:05:01.000Z',
        endedAt: '2026-03-02T09:05:01.400Z',
      }),
    ]);
    return wakes;
  };

  it("shows one agent working and another's failure side by side, and both after the first replies", () => {
    const wakes = twoAgents();
    setup({ wakes });
    expect(chip('wk_demo')?.querySelector('.chip-text')?.textContent).toBe('Working');
    expect(chip('wk_claude')?.getAttribute('data-status')).toBe('failed');
    expect(chip('wk_claude')?.querySelector('.chip-text')?.textContent).toBe("Couldn't complete");
    act(
      () =>
        void wakes.apply(
          wakeOf({
            wakeToken: 'wk_demo',
            agentId: 'demo',
            agentName: 'Demo',
            status: 'reply_sent',
            endedAt: '2026-03-02T09:05:20.000Z',
          }),
        ),
    );
    expect(chip('wk_demo')?.querySelector('.chip-text')?.textContent).toBe('Replied');
    expect(chip('wk_claude')?.getAttribute('data-status')).toBe('failed');
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('the person dismisses the failure from the keyboard; the dismissal is remembered per wake', async () => {
    const user = userEvent.setup();
    const wakes = twoAgents();
    setup({ wakes });
    const dismiss = within(chip('wk_claude') as HTMLElement).getByRole('button', {
      name: 'Dismiss the outcome of Claude',
    });
    expect(within(chip('wk_demo') as HTMLElement).queryByRole('button', { name: /Dismiss/ })).toBeNull();
    dismiss.focus();
    await user.keyboard('{Enter}');
    expect(chip('wk_claude')).toBeNull();
    expect(chip('wk_demo')).not.toBeNull();
    cleanup();
    setup({ wakes });
    expect(chip('wk_claude')).toBeNull();
    // A later failure of the same agent is a new outcome: it shows.
    act(
      () =>
        void wakes.apply(
          wakeOf({
            wakeToken: 'wk_claude2',
            status: 'failed',
            createdAt: '2026-03-02T09:05:02.000Z',
            endedAt: '2026-03-02T09:05:02.100Z',
          }),
        ),
    );
    expect(chip('wk_claude2')?.getAttribute('data-status')).toBe('failed');
  });

  it('names the dismiss control in 简体中文', () => {
    setup({ wakes: twoAgents(), language: 'zh-CN' });
    expect(within(chip('wk_claude') as HTMLElement).getByRole('button', { name: '关闭 Claude 的结果' })).toBeTruthy();
  });
});

describe('StatusArea: Stop on a working chip (issue 29)', () => {
  it('every working chip has Stop; it calls onStop with the agent, once, and no terminal chip has it', async () => {
    const wakes = new WakeBook();
    wakes.applyAll([
      wakeOf({ wakeToken: 'wk_1', status: 'delivered', agentId: 'claude' }),
      wakeOf({ wakeToken: 'wk_2', status: 'final_check_sent', agentId: 'codex', agentName: 'Codex' }),
      wakeOf({ wakeToken: 'wk_3', status: 'queued', agentId: 'oc', agentName: 'OpenCode' }),
    ]);
    const onStop = vi.fn(async () => null);
    setup({ wakes, onStop });
    const stop = screen.getByRole('button', { name: 'Stop the turn of Claude' });
    expect(screen.getByRole('button', { name: 'Stop the turn of Codex' })).toBeTruthy();
    // A queued wake has no running turn yet.
    expect(screen.queryByRole('button', { name: 'Stop the turn of OpenCode' })).toBeNull();
    await userEvent.click(stop);
    expect(onStop).toHaveBeenCalledWith('claude');
    expect((stop as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(stop);
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('a refused Stop says why, and can be pressed again', async () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf({ wakeToken: 'wk_1', status: 'delivered', agentId: 'claude' }));
    const onStop = vi.fn(async () => 'Claude (claude) is not working on a turn; there is nothing to stop.');
    setup({ wakes, onStop });
    const stop = screen.getByRole('button', { name: 'Stop the turn of Claude' });
    await userEvent.click(stop);
    expect(screen.getByRole('alert').textContent).toBe(
      'Could not stop: Claude (claude) is not working on a turn; there is nothing to stop.',
    );
    expect((stop as HTMLButtonElement).disabled).toBe(false);
  });

  it('a stopped wake reads "Stopped · Details" (en and 简体中文); the escalation says it may be stopped', () => {
    const wakes = new WakeBook();
    wakes.applyAll([
      wakeOf({
        wakeToken: 'wk_1',
        status: 'failed',
        reason: 'stopped_by_operator',
        detail: 'the operator stopped the turn',
      }),
      wakeOf({ wakeToken: 'wk_2', status: 'delivered', escalated: true, agentId: 'codex', agentName: 'Codex' }),
    ]);
    setup({ wakes, onStop: vi.fn(async () => null) });
    expect(chip('wk_1')?.querySelector('.chip-text')?.textContent).toBe('Stopped');
    expect(within(chip('wk_1') as HTMLElement).getByRole('button', { name: 'Details' })).toBeTruthy();
    expect(chip('wk_2')?.querySelector('.chip-text')?.textContent).toBe(
      'Extended processing — still working. Response may be delayed. You can stop it.',
    );
    cleanup();
    setup({ wakes, language: 'zh-CN', onStop: vi.fn(async () => null) });
    expect(chip('wk_1')?.querySelector('.chip-text')?.textContent).toBe('已停止');
    expect(chip('wk_2')?.querySelector('.chip-text')?.textContent).toBe(
      '处理时间较长，仍在处理，回复可能延迟。你可以停止它。',
    );
    expect(screen.getByRole('button', { name: '停止 Codex 的这一轮' })).toBeTruthy();
  });
});

describe('StatusArea: chips that tell the truth (issue 40 item 7)', () => {
  it('a working chip counts its beacons ("2 beacons", "1 次进度提示"); a chip with none, or ended, shows no count', () => {
    const wakes = new WakeBook();
    wakes.applyAll([
      wakeOf({ wakeToken: 'wk_1', status: 'delivered', beacons: 2 }),
      wakeOf({ wakeToken: 'wk_2', agentName: 'Codex', agentId: 'codex', status: 'delivered' }),
    ]);
    setup({ wakes });
    expect(chip('wk_1')?.querySelector('.chip-beacons')?.textContent).toBe('2 beacons');
    expect(chip('wk_1')?.querySelector('.chip-beacons')?.getAttribute('data-beacons')).toBe('2');
    expect(chip('wk_2')?.querySelector('.chip-beacons')).toBeNull();
    act(
      () =>
        void wakes.apply(
          wakeOf({ wakeToken: 'wk_2', agentName: 'Codex', agentId: 'codex', status: 'delivered', beacons: 1 }),
        ),
    );
    expect(chip('wk_2')?.querySelector('.chip-beacons')?.textContent).toBe('1 beacon');
    act(
      () =>
        void wakes.apply(
          wakeOf({ wakeToken: 'wk_1', status: 'reply_sent', beacons: 2, endedAt: '2026-03-02T09:07:00.000Z' }),
        ),
    );
    expect(chip('wk_1')?.querySelector('.chip-beacons')).toBeNull();
    cleanup();
    const zh = new WakeBook();
    zh.apply(wakeOf({ wakeToken: 'wk_1', status: 'delivered', beacons: 1 }));
    setup({ wakes: zh, language: 'zh-CN' });
    expect(chip('wk_1')?.querySelector('.chip-beacons')?.textContent).toBe('1 次进度提示');
  });

  it('a hand-back reads as what happened: "Replied · after Helper\'s answer", never "asked by Helper"', () => {
    const wakes = new WakeBook();
    wakes.apply(
      wakeOf({
        agentName: 'Demo',
        agentId: 'demo',
        cause: 'hand_back',
        askedById: 'helper',
        askedByName: 'Helper',
        status: 'reply_sent',
        endedAt: '2026-03-02T09:06:00.000Z',
      }),
    );
    setup({ wakes });
    expect(chip('wk_1')?.querySelector('.chip-asked-by')).toBeNull();
    expect(chip('wk_1')?.querySelector('.chip-answer-from')?.textContent).toBe("after Helper's answer");
    expect(chip('wk_1')?.textContent).toMatch(/^✓Demo·Replied·after Helper's answer/);
    cleanup();
    setup({ wakes, language: 'zh-CN' });
    expect(chip('wk_1')?.querySelector('.chip-answer-from')?.textContent).toBe('收到 Helper 的回答后');
  });

  it('an agent another agent mentioned still says who asked', () => {
    const wakes = new WakeBook();
    wakes.apply(wakeOf({ cause: 'agent_mention', askedById: 'demo', askedByName: 'Demo', status: 'delivered' }));
    setup({ wakes });
    expect(chip('wk_1')?.querySelector('.chip-asked-by')?.textContent).toBe('asked by Demo');
    expect(chip('wk_1')?.querySelector('.chip-answer-from')).toBeNull();
  });

  it('a delivery failure names its channel; one on this app keeps the plain words (en and 简体中文)', () => {
    setup({
      alerts: [
        alertOf({ id: 'al_t', channel: 'telegram' }),
        alertOf({ id: 'al_u', kind: 'delivery_uncertain', channel: 'telegram' }),
        alertOf({ id: 'al_l', channel: 'local' }),
      ],
    });
    const texts = () => [...document.querySelectorAll('[data-alert] .chip-text')].map((e) => e.textContent);
    expect(texts()).toEqual([
      'Not delivered to Telegram — kept for re-delivery',
      'Delivery to Telegram unconfirmed',
      'Reply not delivered — kept for re-delivery',
    ]);
    cleanup();
    setup({ language: 'zh-CN', alerts: [alertOf({ id: 'al_t', channel: 'telegram' })] });
    expect(texts()).toEqual(['未送达 Telegram，已保留待重新投递']);
  });
});

describe('StatusArea: a paused chip counts down to its reset (issue 40 item 8)', () => {
  it('shows the time left, driven by pausedUntil, then "resuming" (en and 简体中文)', () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-05T14:00:00.000Z'), toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const wakes = new WakeBook();
      wakes.apply(wakeOf({ status: 'paused', reason: 'usage_limit', pausedUntil: '2026-12-05T14:04:30.000Z' }));
      setup({ wakes });
      const countdown = () => chip('wk_1')?.querySelector('.chip-countdown')?.textContent;
      expect(countdown()).toBe('4m 30s left');
      act(() => void vi.advanceTimersByTime(30_000));
      expect(countdown()).toBe('4m left');
      act(() => void vi.advanceTimersByTime(240_000));
      expect(countdown()).toBe('resuming');
      cleanup();
      setup({ wakes, language: 'zh-CN' });
      expect(countdown()).toBe('正在继续');
      cleanup();
      const unknown = new WakeBook();
      unknown.apply(wakeOf({ status: 'paused', reason: 'usage_limit', pausedUntil: null }));
      setup({ wakes: unknown });
      expect(countdown()).toMatch(/^\d+/);
    } finally {
      vi.useRealTimers();
    }
  });
});
