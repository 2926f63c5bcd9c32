/**
 * issue 28 "Approvals and policies": for each ACP preset, the four permission policies map onto
 * the modes the real CLI advertises in its session (`session/new` → `modes.availableModes`), and
 * the CLI accepts `session/set_mode` (and Copilot's `allow_all` config option) for each of them.
 * Each row starts the real CLI against the fake model with that policy; the driver refuses to start
 * when the policy's mode is not one the agent offers, so a guessed or renamed mode id fails here.
 *
 * The expected ids are the ones the CLIs advertised in research/acp.md §1 (Gemini CLI 0.61, Qwen
 * Code 0.24.4, Copilot CLI 1.0.102), written out here rather than read from the preset table.
 */
import { describe, expect, it } from 'vitest';
import { PERMISSION_POLICIES, type AcpPreset, type PermissionPolicy } from '../../../shared/config.js';
import { RuntimeHarness } from '../../fixtures/runtime-harness.js';

const COPILOT = 'https://agentclientprotocol.com/protocol/session-modes#';

interface ExpectedMode {
  readonly modeId: string;
  readonly configOption?: { readonly configId: string; readonly value: string };
}

const EXPECTED: Readonly<Record<AcpPreset, Readonly<Record<PermissionPolicy, ExpectedMode>>>> = {
  gemini: {
    ask: { modeId: 'default' },
    'read-only': { modeId: 'plan' },
    'auto-edit': { modeId: 'autoEdit' },
    full: { modeId: 'yolo' },
  },
  qwen: {
    ask: { modeId: 'default' },
    'read-only': { modeId: 'plan' },
    'auto-edit': { modeId: 'auto-edit' },
    full: { modeId: 'yolo' },
  },
  // Copilot has no edit-only mode: auto-edit stays in `agent`, where each write asks (approvals).
  copilot: {
    ask: { modeId: `${COPILOT}agent` },
    'read-only': { modeId: `${COPILOT}plan` },
    'auto-edit': { modeId: `${COPILOT}agent` },
    full: { modeId: `${COPILOT}agent`, configOption: { configId: 'allow_all', value: 'on' } },
  },
};

const PRESETS: readonly AcpPreset[] = ['gemini', 'qwen', 'copilot'];

/** The fields of the driver's `acp: ready` line (the mode it set, the modes the agent advertised). */
function readyFields(h: RuntimeHarness): Record<string, unknown> {
  const line = h.logLines.find((l) => l.startsWith('info acp: ready '));
  if (line === undefined) throw new Error(`no "acp: ready" line in:\n${h.logLines.join('\n')}`);
  return JSON.parse(line.slice('info acp: ready '.length)) as Record<string, unknown>;
}

describe.each(PRESETS)('acp preset %s: each permission policy is a mode the real CLI advertises', (preset) => {
  it.each(PERMISSION_POLICIES)(
    'policy %s → session/set_mode with an advertised mode id, accepted',
    async (policy) => {
      const h = await RuntimeHarness.start('acp', { preset, permissions: policy });
      try {
        const ready = readyFields(h);
        const expected = EXPECTED[preset][policy];
        expect(ready.policy).toBe(policy);
        expect(ready.modeId).toBe(expected.modeId);
        // The real CLI offered that mode in this session.
        expect(ready.modes).toContain(expected.modeId);
        expect(ready.configOption).toEqual(expected.configOption);
      } finally {
        await h.stop();
      }
    },
    240_000,
  );
});
