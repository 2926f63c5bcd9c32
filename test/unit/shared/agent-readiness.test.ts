/**
 * issue 28 "readiness and fix per agent": an ACP agent's fix names its own CLI, sign-in and key
 * (its preset), never the three presets at once; a custom ACP command is named as such.
 */
import { describe, expect, it } from 'vitest';
import { failureWords, readinessFix, runtimeLabel } from '../../../shared/agent-readiness.js';
import { wordsOf } from '../../fixtures/runtime-words.js';

describe('readiness copy per ACP preset', () => {
  it('each preset names its own CLI, sign-in and key, and no other preset', () => {
    const cases = [
      ['gemini', 'Gemini CLI', '`gemini` (Login with Google)', '`GEMINI_API_KEY`', '`gemini`'],
      ['qwen', 'Qwen Code', '`qwen` (/auth)', '`OPENAI_API_KEY`', '`qwen`'],
      ['copilot', 'Copilot CLI', '`copilot login`', '`COPILOT_GITHUB_TOKEN`', '`copilot`'],
    ] as const;
    for (const [preset, label, login, key, cli] of cases) {
      const others = cases.filter(([p]) => p !== preset).map(([p]) => p);
      expect(runtimeLabel(wordsOf('acp', preset))).toBe(label);
      const signIn = readinessFix('needs_sign_in', 'en', { words: wordsOf('acp', preset), auth: 'cli-login' });
      expect(signIn).toBe(`Run ${login} in a terminal, then Retry.`);
      expect(readinessFix('needs_sign_in', 'en', { words: wordsOf('acp', preset), auth: 'env' })).toContain(key);
      const missing = readinessFix('cli_missing', 'zh-CN', { words: wordsOf('acp', preset), auth: 'cli-login' });
      expect(missing).toContain(`请安装 ${cli}`);
      for (const text of [signIn, missing]) for (const other of others) expect(text).not.toContain(`\`${other}`);
      expect(failureWords('auth_required', 'en', { words: wordsOf('acp', preset) })).toBe(
        `${label} isn't signed in. Run ${login} in a terminal, then Retry.`,
      );
    }
  });

  it('an ACP agent of no preset is named by its "command"; the native runtimes keep their own words', () => {
    expect(runtimeLabel(wordsOf('acp'))).toBe('ACP agent');
    expect(readinessFix('cli_missing', 'en', { words: wordsOf('acp'), auth: 'cli-login' })).toBe(
      'Install the ACP agent its "command" names or set this agent\'s "command" in agentteam.json, then Retry.',
    );
    expect(readinessFix('needs_sign_in', 'en', { words: wordsOf('claude-code'), auth: 'cli-login' })).toBe(
      'Run `claude login` in a terminal, then Retry.',
    );
    expect(readinessFix('needs_sign_in', 'zh-CN', { words: wordsOf('codex'), auth: 'env' })).toBe(
      '请在此智能体的 env 中设置 `OPENAI_API_KEY`。',
    );
  });
});

describe('failure words for budget_reached (issue 41)', () => {
  it('say the daily budget was reached during the turn and how to go on, in English and 简体中文', () => {
    expect(failureWords('budget_reached', 'en', { words: wordsOf('codex') })).toBe(
      "This agent's daily budget (budget in agentteam.json) was reached during this turn, so AgentTeam interrupted it. Raise budget, then send the message again; later messages wait until the budget is raised or the day ends.",
    );
    const zh = failureWords('budget_reached', 'zh-CN', { words: wordsOf('codex') });
    expect(zh).toContain('今天的预算');
    expect(zh).toContain('提高预算');
  });
});
