// @vitest-environment happy-dom
/** FailureDetails (UI.md "Failure Details"): the reason in plain words first, the raw detail as text, neutral for no-reply. */
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Wake } from '../../../../shared/api/contract.js';
import { FailureDetails } from '../../../../renderer/src/components/failure-details.js';

const wake = (over: Partial<Wake>): Wake =>
  ({
    wakeToken: 'wk_1',
    agentId: 'claude',
    runtime: 'claude-code',
    target: '#general',
    status: 'failed',
    reason: 'auth_required',
    detail: 'Not logged in · Please run /login',
    ...over,
  }) as Wake;

afterEach(cleanup);

describe('FailureDetails', () => {
  it('a failed wake shows the fix in words, then the raw detail as text (never markup) only on demand', async () => {
    render(<FailureDetails wake={wake({ detail: '<b>Not logged in</b>' })} language="en" />);
    expect(screen.getByText('Failure details').tagName).toBe('SUMMARY');
    // issue 40 item 5: the raw runtime line stays behind its own disclosure until the person opens it.
    expect(document.querySelector('.failure-raw')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Raw detail', hidden: true }));
    const raw = document.querySelector('pre.failure-raw');
    expect(raw?.textContent).toBe('<b>Not logged in</b>');
    expect(raw?.querySelector('b')).toBeNull();
    expect(document.querySelector('.failure-words')?.textContent).toMatch(/sign/i);
  });

  it('a wake that ended without a reply and no refusal shows nothing', () => {
    const { container } = render(
      <FailureDetails
        wake={wake({ status: 'completed_without_visible_reply', reason: null, detail: null })}
        language="en"
      />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('speaks 简体中文, and names our own refusal of a wake that ended without a reply', () => {
    render(<FailureDetails wake={wake({})} language="zh-CN" />);
    expect(screen.getByText('失败详情').tagName).toBe('SUMMARY');
    cleanup();
    render(
      <FailureDetails
        wake={wake({
          status: 'completed_without_visible_reply',
          reason: null,
          detail: 'message_send refused: rate_limited: x',
        })}
        language="en"
      />,
    );
    // Not a failure (contract §10.3): the summary stays neutral.
    expect(screen.getByText('Details').tagName).toBe('SUMMARY');
    expect(document.querySelector('.failure-words')?.textContent).toMatch(/per-minute message limit/);
  });
});
