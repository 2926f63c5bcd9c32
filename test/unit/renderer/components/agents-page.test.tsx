// @vitest-environment happy-dom
/** The agents page: one row per agent (name, id, runtime, model, state), Message opens its DM. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentsPage } from '../../../../renderer/src/components/agents-page.js';
import { agentOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

describe('AgentsPage', () => {
  it('shows each agent with its id, runtime, model and state in words', () => {
    render(
      <AgentsPage
        agents={[
          agentOf({ id: 'claude', name: 'Claude', model: 'opus', state: 'busy' }),
          agentOf({ id: 'codex', name: 'Codex', runtime: 'codex', state: 'crashed' }),
        ]}
        language="en"
        onMessage={() => undefined}
      />,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Agents');
    const codex = document.querySelector('tr[data-agent="codex"]') as HTMLElement;
    const cells = within(codex)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual(['Codex ', '@codex', 'codex', 'default', 'stopped unexpectedly']);
    expect(within(document.querySelector('tr[data-agent="claude"]') as HTMLElement).getByText('opus')).toBeTruthy();
    expect(document.querySelector('tr[data-agent="claude"] .state-busy')?.textContent).toBe('busy');
  });

  it('marks the demo agent and says so in 简体中文', () => {
    render(
      <AgentsPage agents={[agentOf({ demo: true, runtime: 'demo' })]} language="zh-CN" onMessage={() => undefined} />,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('智能体');
    expect(screen.getByText('演示').className).toBe('tag');
    expect(screen.getByRole('columnheader', { name: '模型' })).toBeTruthy();
    expect(screen.getByText('空闲')).toBeTruthy();
  });

  it('says how to add an agent when there is none', () => {
    render(<AgentsPage agents={[]} language="en" onMessage={() => undefined} />);
    expect(screen.getByText(/No agents are configured/)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("Message calls back with that agent's id", async () => {
    const onMessage = vi.fn();
    render(
      <AgentsPage
        agents={[agentOf({ id: 'a1' }), agentOf({ id: 'b2', name: 'B' })]}
        language="en"
        onMessage={onMessage}
      />,
    );
    const row = document.querySelector('tr[data-agent="b2"]') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Message' }));
    expect(onMessage).toHaveBeenCalledExactlyOnceWith('b2');
  });

  it('renders an agent name as text, never markup', () => {
    render(
      <AgentsPage
        agents={[agentOf({ name: '<img src=x onerror=alert(1)>' })]}
        language="en"
        onMessage={() => undefined}
      />,
    );
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByText(/<img src=x/)).toBeTruthy();
  });
});
