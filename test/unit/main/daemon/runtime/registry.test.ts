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
import { HOST_RUNTIMES } from '../../../../../shared/agent-host.js';
import { hostCommandOf } from '../../../../../main/daemon/runtime/readiness.js';

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
  // The operator's words for each runtime and preset (label, CLI, sign-in, key): one table for
  // the daemon, the CLI, Telegram and the renderer, which also words failures of wakes whose
  // agent it no longer knows (issue 39 "the operator's words in shared/").
  'shared/agent-readiness.ts': 'operator copy',
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
    expect(runtimeDescriptors().flatMap((d) => (d.overSsh === null ? [] : [d.kind]))).toEqual([...HOST_RUNTIMES]);
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
});
