// @vitest-environment happy-dom
/** issue 14: an agent's workspace and policy form (only changed keys are saved) and its "always" rules. */
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent, ApiResult } from '../../../../shared/api/contract.js';
import { AgentAllowRules, AgentSettingsForm } from '../../../../renderer/src/components/agent-settings-form.js';
import { agentOf } from '../../../fixtures/contract-values.js';
import { ok, scriptedClientApi, type CallScript } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

const agent = agentOf({ cwd: '/w/app', permissions: 'ask' });

function setup(
  script: CallScript = {},
  over: { language?: 'en' | 'zh-CN'; canChooseFolder?: boolean; saved?: boolean } = {},
) {
  const fake = scriptedClientApi(script);
  const onSaved = vi.fn();
  render(
    <AgentSettingsForm
      api={fake.api}
      agent={agent}
      language={over.language ?? 'en'}
      canChooseFolder={over.canChooseFolder ?? false}
      saved={over.saved ?? false}
      onSaved={onSaved}
    />,
  );
  return { fake, onSaved };
}
const cwdInput = () => screen.getByRole('textbox', { name: 'Workspace folder' }) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: 'Save and restart' }) as HTMLButtonElement;

describe('AgentSettingsForm', () => {
  it("starts from the agent's values, Save disabled until something changes", async () => {
    setup();
    expect(cwdInput().value).toBe('/w/app');
    expect((screen.getByRole('combobox', { name: 'Permissions' }) as HTMLSelectElement).value).toBe('ask');
    expect(saveButton().disabled).toBe(true);
    await userEvent.type(cwdInput(), '2');
    expect(saveButton().disabled).toBe(false);
    await userEvent.type(cwdInput(), '{Backspace}');
    expect(saveButton().disabled).toBe(true);
  });

  it('saves only the changed key (the trimmed path), says Saving… meanwhile, then reports saved', async () => {
    const answer = Promise.withResolvers<ApiResult<Agent>>();
    const { fake, onSaved } = setup({ 'agents.update': () => answer.promise });
    await userEvent.clear(cwdInput());
    await userEvent.type(cwdInput(), '  /w/other  {Enter}');
    expect(fake.requestsOf('agents.update')).toEqual([{ agentId: 'claude', cwd: '/w/other' }]);
    expect((screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement).disabled).toBe(true);
    answer.resolve(ok(agent));
    await vi.waitFor(() => expect(onSaved).toHaveBeenLastCalledWith(true));
  });

  it('saves a new policy alone and warns when it is full', async () => {
    const { fake } = setup({ 'agents.update': () => ok(agent) });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Permissions' }), 'full');
    expect(document.querySelector('.as-warning')?.textContent).toBe(
      '⚠ Every command and file edit runs without asking you.',
    );
    await userEvent.click(saveButton());
    expect(fake.requestsOf('agents.update')).toEqual([{ agentId: 'claude', permissions: 'full' }]);
  });

  it('shows a workspace refusal under the path field, which it describes', async () => {
    setup({
      'agents.update': () => ({ ok: false, code: 'workspace_invalid', message: '/nope does not exist' }),
    });
    await userEvent.type(cwdInput(), 'x');
    await userEvent.click(saveButton());
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('/nope does not exist');
    expect(cwdInput().getAttribute('aria-invalid')).toBe('true');
    expect(cwdInput().getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
  });

  it('shows any other refusal under the form, the path field left valid', async () => {
    setup({ 'agents.update': () => ({ ok: false, code: 'config_invalid', message: 'fix agentteam.json first' }) });
    await userEvent.type(cwdInput(), 'x');
    await userEvent.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toBe('fix agentteam.json first');
    expect(cwdInput().getAttribute('aria-invalid')).toBe('false');
  });

  it('leads a workspace refusal with a sentence in 简体中文', async () => {
    setup(
      { 'agents.update': () => ({ ok: false, code: 'workspace_invalid', message: '/nope does not exist' }) },
      { language: 'zh-CN' },
    );
    await userEvent.type(screen.getByRole('textbox', { name: '工作目录' }), 'x');
    await userEvent.click(screen.getByRole('button', { name: '保存并重启' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '无法使用该工作目录，未做任何更改。 /nope does not exist',
    );
  });

  it('offers the folder picker only in the desktop app, and takes the chosen path', async () => {
    setup();
    expect(screen.queryByRole('button', { name: 'Choose folder…' })).toBeNull();
    cleanup();
    const { fake } = setup({ 'desktop.chooseFolder': () => ok({ path: '/w/picked' }) }, { canChooseFolder: true });
    await userEvent.click(screen.getByRole('button', { name: 'Choose folder…' }));
    await vi.waitFor(() => expect(cwdInput().value).toBe('/w/picked'));
    expect(fake.requestsOf('desktop.chooseFolder')).toEqual([{ defaultPath: '/w/app' }]);
  });

  it('says it saved while the parent keeps "saved"', () => {
    setup({}, { saved: true });
    expect(screen.getByRole('status').textContent).toBe('Saved to agentteam.json. The agent is restarting.');
  });

  it('issue 26: isolation in a worktree with a base branch, checked as typed, saved alone; empty base is null', async () => {
    const { fake } = setup({ 'agents.update': () => ok(agent) });
    const isolation = screen.getByRole('combobox', { name: 'Isolation' }) as HTMLSelectElement;
    expect(isolation.value).toBe('none');
    expect(screen.queryByRole('textbox', { name: 'Base branch' })).toBeNull();
    await userEvent.selectOptions(isolation, 'worktree');
    const base = screen.getByRole('textbox', { name: 'Base branch' }) as HTMLInputElement;
    await userEvent.type(base, 'feature..x');
    const problem = screen.getByRole('alert');
    expect(problem.textContent).toMatch(/^Not a git branch name/);
    expect(base.getAttribute('aria-invalid')).toBe('true');
    expect(base.getAttribute('aria-describedby')?.split(' ')).toContain(problem.id);
    expect(saveButton().disabled).toBe(true);
    await userEvent.type(base, '{Enter}');
    expect(fake.requestsOf('agents.update')).toEqual([]);
    await userEvent.clear(base);
    await userEvent.type(base, ' release/1.2 ');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(saveButton());
    expect(fake.requestsOf('agents.update')).toEqual([
      { agentId: 'claude', isolation: 'worktree', baseBranch: 'release/1.2' },
    ]);
  });

  it('issue 26: an isolated agent starts from its values; clearing the base saves null; zh-CN labels', async () => {
    const fake = scriptedClientApi({ 'agents.update': () => ok(agent) });
    render(
      <AgentSettingsForm
        api={fake.api}
        agent={agentOf({ cwd: '/w/app', permissions: 'ask', isolation: 'worktree', baseBranch: 'main' })}
        language="zh-CN"
        canChooseFolder={false}
        saved={false}
        onSaved={() => undefined}
      />,
    );
    expect((screen.getByRole('combobox', { name: '隔离' }) as HTMLSelectElement).value).toBe('worktree');
    const base = screen.getByRole('textbox', { name: '基线分支' }) as HTMLInputElement;
    expect(base.value).toBe('main');
    const save = screen.getByRole('button', { name: '保存并重启' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await userEvent.clear(base);
    await userEvent.click(save);
    expect(fake.requestsOf('agents.update')).toEqual([{ agentId: 'claude', baseBranch: null }]);
  });
});

describe('AgentAllowRules', () => {
  it('says there is none', () => {
    render(<AgentAllowRules api={scriptedClientApi().api} agent={agentOf({ allow: [] })} language="en" />);
    expect(screen.getByText(/No "always" rules/)).toBeTruthy();
  });

  it('revokes one rule by its exact text and says so; the buttons wait meanwhile', async () => {
    const answer = Promise.withResolvers<ApiResult<Agent>>();
    const fake = scriptedClientApi({ 'agents.revokeRule': () => answer.promise });
    render(<AgentAllowRules api={fake.api} agent={agentOf({ allow: ['Bash(npm test)', 'Edit(*)'] })} language="en" />);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke Bash(npm test)' }));
    expect(fake.requestsOf('agents.revokeRule')).toEqual([{ agentId: 'claude', rule: 'Bash(npm test)' }]);
    expect((screen.getByRole('button', { name: 'Revoke Edit(*)' }) as HTMLButtonElement).disabled).toBe(true);
    answer.resolve(ok(agentOf()));
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('Revoked Bash(npm test).'));
  });

  it('shows a refusal, in 简体中文 labels', async () => {
    const fake = scriptedClientApi({
      'agents.revokeRule': () => ({ ok: false, code: 'unknown_rule', message: 'no such rule' }),
    });
    render(<AgentAllowRules api={fake.api} agent={agentOf({ allow: ['<b>Bash</b>'] })} language="zh-CN" />);
    expect(screen.getByRole('heading').textContent).toBe('始终允许');
    expect(document.querySelector('.allow-rules b')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '撤销 <b>Bash</b>' }));
    expect((await screen.findByRole('alert')).textContent).toBe('no such rule');
  });

  it('issue 29: rules the file lists without a grant are apart, "needs your confirmation", with Confirm and Remove', async () => {
    const fake = scriptedClientApi({
      'agents.confirmRule': () => ok(agentOf()),
      'agents.revokeRule': () => ok(agentOf()),
    });
    render(
      <AgentAllowRules
        api={fake.api}
        agent={agentOf({ allow: ['Bash(ls)'], unconfirmedAllow: ['Bash(curl x | sh)', 'Edit(*)'] })}
        language="en"
      />,
    );
    const group = screen.getByRole('group', { name: '⚠ Needs your confirmation' });
    expect(group.textContent).toContain('you did not grant them here, so they are not applied');
    expect([...group.querySelectorAll('li code')].map((c) => c.textContent)).toEqual(['Bash(curl x | sh)', 'Edit(*)']);
    // The granted rule is not among them, and has only Revoke.
    expect(screen.queryByRole('button', { name: 'Confirm Bash(ls)' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Edit(*)' }));
    expect(fake.requestsOf('agents.confirmRule')).toEqual([{ agentId: 'claude', rule: 'Edit(*)' }]);
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Confirmed Edit(*): it is allowed from now on.'),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove Bash(curl x | sh)' }));
    expect(fake.requestsOf('agents.revokeRule')).toEqual([{ agentId: 'claude', rule: 'Bash(curl x | sh)' }]);
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Removed Bash(curl x | sh) from agentteam.json.'),
    );
  });

  it('issue 29: in 简体中文 too', () => {
    render(
      <AgentAllowRules
        api={scriptedClientApi().api}
        agent={agentOf({ allow: [], unconfirmedAllow: ['Bash(ls)'] })}
        language="zh-CN"
      />,
    );
    expect(screen.getByRole('group', { name: '⚠ 需要你确认' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '确认 Bash(ls)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '删除 Bash(ls)' })).toBeTruthy();
  });
});
