/**
 * issue 27: the paused chip's words in both languages — "⏸ Paused until 14:05 · usage limit",
 * "Paused · daily budget reached" — from the wake the daemon publishes (its reason and
 * `pausedUntil`; the detail text is not read), and the wake store lets a pause and its resume
 * alternate with `delivered`.
 */
import { describe, expect, it } from 'vitest';
import { CHIP_ICONS, chipKind, pausedText } from '../../../../renderer/src/status/wake-chips.js';
import { supersedes } from '../../../../renderer/src/status/wake-store.js';
import { wakeFixture } from '../../../fixtures/scripted-daemon.js';

const reset = new Date(2026, 11, 2, 14, 5, 0);
const detail = `usage_limit until ${reset.toISOString()}; API Error: Request rejected (429)`;

describe('the paused chip (issue 27)', () => {
  it('says until when, and why, in English and Simplified Chinese', () => {
    const wake = { reason: 'usage_limit', pausedUntil: reset.toISOString() };
    expect(pausedText(wake, 'en')).toBe('Paused until 14:05 · usage limit');
    expect(pausedText(wake, 'zh-CN')).toBe('已暂停，直到 14:05 · 用量上限');
  });

  it('never reads the time out of the detail text', () => {
    const wake = { reason: 'usage_limit', pausedUntil: null, detail };
    expect(pausedText(wake, 'en')).toBe('Paused · usage limit');
  });

  it('a budget pause with no reset says only why', () => {
    const wake = { reason: 'daily_budget', pausedUntil: null };
    expect(pausedText(wake, 'en')).toBe('Paused · daily budget reached');
    expect(pausedText(wake, 'zh-CN')).toBe('已暂停 · 已达每日预算');
  });

  it('a start hold (issue 42: too many agents starting at once) says why, in both languages', () => {
    const wake = { reason: 'waiting_for_start', pausedUntil: null };
    expect(pausedText(wake, 'en')).toBe('Paused · waiting for other agents to start');
    expect(pausedText(wake, 'zh-CN')).toBe('已暂停 · 等待其他智能体启动');
  });

  it('is its own chip kind with the pause icon, and a resume supersedes it', () => {
    const paused = wakeFixture({
      wakeToken: 'w1',
      status: 'paused',
      reason: 'usage_limit',
      detail,
      pausedUntil: reset.toISOString(),
    });
    expect(chipKind(paused)).toBe('paused');
    expect(CHIP_ICONS.paused).toBe('⏸');
    const delivered = wakeFixture({ wakeToken: 'w1', status: 'delivered' });
    expect(supersedes(delivered, paused)).toBe(true);
    expect(supersedes(paused, delivered)).toBe(true);
    expect(supersedes(paused, wakeFixture({ wakeToken: 'w1', status: 'reply_sent' }))).toBe(true);
    expect(supersedes(wakeFixture({ wakeToken: 'w1', status: 'reply_sent' }), paused)).toBe(false);
  });
});
