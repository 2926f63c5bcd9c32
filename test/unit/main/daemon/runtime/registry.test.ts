import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firstRunConfig } from '../../../../../main/daemon/first-run-config.js';
import { ACP_PRESET_SPECS } from '../../../../../main/daemon/runtime/acp/acp-presets.js';
import { runtimeDescriptor, runtimeDescriptors } from '../../../../../main/daemon/runtime/registry.js';
import { ACP_PRESETS } from '../../../../../shared/config.js';
import { RUNTIMES } from '../../../../../shared/wake-status.js';
import { targetKey } from '../../../../../shared/target.js';
import { renderFinalCheck } from '../../../../../main/daemon/prompt/final-check.js';
import { compileTurnContext } from '../../../../../main/daemon/prompt/prompt-compiler.js';
import type { McpToolNaming } from '../../../../../main/daemon/prompt/tool-names.js';
import { agentFor } from '../../../../fixtures/prompt-agents.js';
import { hostCommandOf } from '../../../../../main/daemon/runtime/readiness.js';
import { wordsOf } from '../../../../fixtures/runtime-words.js';
import { agentConfigIssues, installableRuntimes, runtimeWordsOf } from '../../../../../main/daemon/runtime/registry.js';
import { AgentRoster } from '../../../../../main/daemon/services/agent-roster.js';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { failureWords, readinessFix } from '../../../../../shared/agent-readiness.js';
import { asyncScheduler, EMPTY } from 'rxjs';

/**
 * issue 39 "Plug-ins" (STYLE.md habit 20): a runtime is its folder plus one line of
 * main/daemon/runtime/registry.ts. These tests hold that property: every runtime id has its one
 * descriptor, and no source file outside the runtime folders branches on a runtime or ACP preset
 * id except the few listed below, each for the reason given.
 */

/** Runtime and preset ids, from the enums themselves: a new id is scanned for the day it is added. */
const IDS = [...RUNTIMES, ...ACP_PRESETS];
const quoted = IDS.map((id) => id.replace(/[-]/g, '\\-')).join('|');
const bare = IDS.filter((id) => /^[a-z]+$/.test(id)).join('|');
/**
 * A branch on an id: `=== 'codex'`, `'codex' !==`, `case 'codex'`, a table keyed by ids
 * (`'claude-code': …`, `codex: {`), or a record typed by the id enums.
 */
const BRANCH = new RegExp(
  [
    `[!=]==\\s*'(?:${quoted})'`,
    `'(?:${quoted})'\\s*[!=]==`,
    `case\\s+'(?:${quoted})'`,
    `^\\s*'(?:${quoted})'\\s*:`,
    `^\\s*(?:${bare})\\s*:\\s*\\{`,
    `Record<(?:Exclude<)?(?:RuntimeKind|AcpPreset)\\b`,
  ].join('|'),
);

/** Where a runtime's own code lives: its folder (named by its id), and the registry that lists the folders. */
const isRuntimeOwn = (path: string): boolean =>
  RUNTIMES.some((id) => path.startsWith(`main/daemon/runtime/${id}/`)) || path === 'main/daemon/runtime/registry.ts';

/** The files that still branch on an id, and why each may (see the report of issue 39). */
const ALLOWED: Readonly<Record<string, string>> = {
  // The config schema's rule that `preset` belongs to `runtime: "acp"` (issue 28).
  'shared/config.ts': 'config validation',
  // The agent view's `demo` flag (the renderer words a demo agent as "demo").
  'main/daemon/api/api-mappers.ts': 'api demo flag',
};

function sourceFiles(): string[] {
  return ['main', 'shared', 'preload', 'renderer/src'].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => `${dir}/${f}`),
  );
}

describe('runtime registry (issue 39)', () => {
  it('has exactly one descriptor per runtime id, in RUNTIMES order', () => {
    expect(runtimeDescriptors().map((d) => d.kind)).toEqual([...RUNTIMES]);
    for (const kind of RUNTIMES) expect(runtimeDescriptor(kind).kind).toBe(kind);
  });

  it('carries every ACP preset as an entry of the ACP descriptor, each offered to a first run', () => {
    expect(Object.keys(ACP_PRESET_SPECS).sort()).toEqual([...ACP_PRESETS].sort());
    const offered = runtimeDescriptor('acp').firstRun.offered.map((o) => o.agent.preset);
    expect(offered).toEqual([...ACP_PRESETS]);
    // What the descriptors offer is what a first run seeds, nothing restated beside them.
    const seed = firstRunConfig(() => true);
    const runtimes = runtimeDescriptors();
    expect(seed.config.agents.map((a) => a.id)).toEqual([
      ...runtimes.flatMap((d) => d.firstRun.always.map((a) => a.id)),
      ...runtimes.flatMap((d) => d.firstRun.offered.map((o) => o.agent.id)),
    ]);
    // And the welcome's install hint (agents.installable) is that offered list, in each offer's words.
    expect(installableRuntimes()).toEqual(
      runtimes.flatMap((d) => d.firstRun.offered.map((o) => ({ command: o.command, words: runtimeWordsOf(o.agent) }))),
    );
    expect(installableRuntimes().map((r) => r.command)).toContain('claude');
  });

  it('leaves no branch on a runtime or preset id outside the runtime folders but the listed ones', () => {
    const branching = new Map<string, string[]>();
    for (const file of sourceFiles()) {
      if (isRuntimeOwn(file)) continue;
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (BRANCH.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
      if (lines.length > 0) branching.set(file, lines);
    }
    const unexpected = [...branching].filter(([file]) => ALLOWED[file] === undefined);
    expect(unexpected, 'ask runtime/registry.ts instead (or the descriptor of the runtime)').toEqual([]);
    // An allowed file that no longer branches leaves the list: the list stays the truth.
    expect([...branching.keys()].sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('issue 43: a config may place on a host exactly the runtimes whose descriptor runs over SSH', () => {
    // The descriptor decides: the config refuses `host` exactly where `overSsh` is null (no list beside them).
    for (const d of runtimeDescriptors()) {
      const issues = agentConfigIssues({ runtime: d.kind, host: 'ssh://dev@box' });
      expect(
        issues.map((i) => i.path),
        d.kind,
      ).toEqual(d.overSsh === null ? [['runtime']] : []);
      expect(agentConfigIssues({ runtime: d.kind })).toEqual([]);
    }
    // With no `command`, the CLI on the host is the descriptor's program, per ACP preset.
    for (const preset of ACP_PRESETS)
      expect(hostCommandOf({ runtime: 'acp', preset, command: null })).toBe(ACP_PRESET_SPECS[preset].firstRun?.command);
    expect(hostCommandOf({ runtime: 'claude-code', command: null })).toBe('claude');
    expect(hostCommandOf({ runtime: 'acp', preset: 'qwen', command: '/opt/qwen/bin/qwen' })).toBe('/opt/qwen/bin/qwen');
  });

  it('the scan sees each kind of branch it is meant to catch', () => {
    for (const line of [
      "if (agent.runtime === 'codex') {",
      "case 'gemini':",
      "  'claude-code': { label: 'Claude Code' },",
      '  opencode: { label: 1 },',
      'const T: Record<AcpPreset, string> = {',
    ])
      expect(BRANCH.test(line), line).toBe(true);
    for (const line of ['  demo: a.demo,', 'runtime: z.enum(RUNTIMES),', "// 'codex' in a comment"])
      expect(BRANCH.test(line), line).toBe(false);
  });

  it("names the tools as a runtime's descriptor says: a new runtime's naming reaches every prompt with no prompt edit", () => {
    // A runtime the prompt room has never heard of: only its descriptor's naming is handed in.
    const fixture: McpToolNaming = { name: (tool) => `fixture.${tool}`, namespace: 'fixture-tools' };
    const ref = '`fixture.message_send` (tool namespace `fixture-tools`)';
    const finalCheck = renderFinalCheck(
      [{ target: targetKey('#general'), wakes: [{ messageId: 'm_1', targetSeq: 1, wakeToken: 'wk_1' }] }],
      { naming: fixture, language: 'en' },
    );
    expect(finalCheck).toContain(ref);
    expect(compileTurnContext({ ...agentFor('codex'), toolNaming: fixture }, { turn: 'wake' }).text).toContain(ref);
    // And every registered runtime's descriptor names message_send its own way.
    for (const d of runtimeDescriptors()) expect(d.toolNaming({}).name('message_send')).toMatch(/message_send$/);
  });

  it("carries each runtime's words for people on its descriptor, to the agent view: the page and the CLI word no runtime themselves", () => {
    const cases = [
      ...RUNTIMES.filter((r) => r !== 'acp').map((runtime) => ({ runtime, preset: undefined })),
      ...ACP_PRESETS.map((preset) => ({ runtime: 'acp' as const, preset })),
      { runtime: 'acp' as const, preset: undefined },
    ];
    for (const { runtime, preset } of cases) {
      const words = runtimeWordsOf({ runtime, preset });
      // The page's test table is the descriptors' words, nothing restated beside them.
      expect(words, `${runtime} ${preset ?? ''}`).toEqual(wordsOf(runtime, preset));
      expect(words.label).not.toBe('');
      // The agent view the daemon sends carries them (the roster builds every view).
      const agent = AgentConfigSchema.parse({ id: 'a', name: 'A', runtime, ...(preset ? { preset } : {}) });
      const roster = new AgentRoster({
        agents: [agent],
        file: { config: { agents: [agent] } as never, state$: EMPTY },
        lifecycle: { registerAgent: () => undefined },
        dataDir: '/nonexistent',
        probe: () => new Promise(() => undefined),
        clock: asyncScheduler,
      });
      expect(roster.view('a')?.runtimeWords).toEqual(words);
      roster.dispose();
    }
    // The sentences are shared; the runtime's phrases in them are the descriptor's, in both languages.
    const fixture = { label: 'Fixture CLI', cli: '`fixture`', login: '`fixture login`', key: '`FIXTURE_KEY`' };
    expect(readinessFix('needs_sign_in', 'en', { words: fixture, auth: 'cli-login' })).toBe(
      'Run `fixture login` in a terminal, then Retry.',
    );
    expect(readinessFix('needs_sign_in', 'zh-CN', { words: fixture, auth: 'env' })).toBe(
      '请在此智能体的 env 中设置 `FIXTURE_KEY`。',
    );
    expect(failureWords('cli_missing', 'en', { words: fixture })).toBe(
      'The Fixture CLI CLI was not found. Install `fixture` or set this agent\'s "command" in agentteam.json, then Retry.',
    );
  });

  it('a new runtime needs no edit in shared/ or the renderer: neither names a runtime or preset, by id or by label', () => {
    const labels = [
      ...RUNTIMES.filter((r) => r !== 'acp').map((runtime) => runtimeWordsOf({ runtime }).label),
      ...ACP_PRESETS.map((preset) => runtimeWordsOf({ runtime: 'acp', preset }).label),
    ];
    const id = new RegExp(`['"\`](?:${quoted})['"\`]`);
    const label = new RegExp(labels.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
    /** Where a name may stay, and why. */
    const KEPT: Readonly<Record<string, string>> = {
      // The enums themselves: a new runtime's id is added here (and its folder and registry line).
      'shared/wake-status.ts': 'RUNTIMES',
      'shared/config.ts': 'ACP_PRESETS and the config rule that `preset` belongs to `runtime: "acp"`',
      // The roster's fields the renderer compares (`'runtime'`, `'demo'` are field names, not ids).
      'renderer/src/state/agent-store.ts': 'field names',
      // The Agents copy's word for a demo agent ("demo"), keyed by the agent view's `demo` flag.
      'renderer/src/i18n/tables/agents-copy.ts': 'copy key agent.demo',
      // A day with no usage is drawn as zeros; its runtime is a placeholder never shown.
      'renderer/src/state/usage-store.ts': 'placeholder runtime of an empty day',
    };
    const naming = sourceFiles()
      .filter((f) => f.startsWith('shared/') || f.startsWith('renderer/src/'))
      .filter((f) => {
        const code = readFileSync(f, 'utf8')
          .split('\n')
          .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
          .join('\n');
        return id.test(code) || label.test(code);
      });
    expect(naming.filter((f) => KEPT[f] === undefined)).toEqual([]);
    expect(naming.sort()).toEqual(Object.keys(KEPT).sort());
  });
});
