// @vitest-environment happy-dom
/** Ctrl+K switcher: type to filter, arrows move, Enter picks, Esc or a click outside closes. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Switcher } from '../../../../renderer/src/components/switcher.js';
import { conversationOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

const conversations = ['#general', '#build', 'dm:@claude'].map((t) => conversationOf(t));
const setup = (language: 'en' | 'zh-CN' = 'en') => {
  const onPick = vi.fn();
  const onClose = vi.fn();
  render(<Switcher conversations={conversations} language={language} onPick={onPick} onClose={onClose} />);
  return { onPick, onClose, input: screen.getByRole('combobox') };
};
const options = () => screen.getAllByRole('option').map((o) => o.textContent);
const selected = () =>
  screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')?.textContent;

describe('Switcher', () => {
  it('opens focused on its input, listing every conversation by target', () => {
    const { input } = setup();
    expect(document.activeElement).toBe(input);
    expect(screen.getByRole('dialog', { name: 'Switch conversation' })).toBeTruthy();
    expect(options()).toEqual(['#build', '#general', 'dm:@claude']);
    expect(selected()).toBe('#build');
  });

  it('filters as the person types and picks the first match with Enter', async () => {
    const { input, onPick } = setup();
    await userEvent.type(input, 'gen');
    expect(options()).toEqual(['#general']);
    await userEvent.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledExactlyOnceWith('#general');
  });

  it('moves with the arrow keys, wrapping at both ends', async () => {
    const { onPick } = setup();
    await userEvent.keyboard('{ArrowDown}');
    expect(selected()).toBe('#general');
    expect(screen.getByRole('combobox').getAttribute('aria-activedescendant')).toBe(
      screen.getAllByRole('option')[1]?.id,
    );
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(selected()).toBe('#build');
    await userEvent.keyboard('{ArrowUp}');
    expect(selected()).toBe('dm:@claude');
    await userEvent.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledExactlyOnceWith('dm:@claude');
  });

  it('Enter with no match picks nothing', async () => {
    const { input, onPick } = setup();
    await userEvent.type(input, 'nothing-like-this{Enter}');
    expect(screen.queryAllByRole('option')).toEqual([]);
    expect(onPick).not.toHaveBeenCalled();
  });

  it('Escape and a press outside the dialog close it; a press inside does not', async () => {
    const { onClose } = setup();
    fireEvent.mouseDown(screen.getByRole('dialog'));
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.mouseDown(document.querySelector('.switcher-backdrop') as HTMLElement);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('a press on an option picks it', () => {
    const { onPick } = setup();
    fireEvent.mouseDown(screen.getByRole('option', { name: 'dm:@claude' }));
    expect(onPick).toHaveBeenCalledExactlyOnceWith('dm:@claude');
  });

  it('speaks 简体中文', () => {
    const { input } = setup('zh-CN');
    expect(input.getAttribute('placeholder')).toBe('输入会话名称');
    expect(screen.getByRole('dialog', { name: '切换会话' })).toBeTruthy();
  });
});
