import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  fingerprint,
  runtimePolicyFingerprint,
  runtimeStartFingerprint,
  threadContractFingerprint,
} from '../../../../../main/daemon/prompt/fingerprints.js';
import {
  legacyBehaviorSettings,
  LEGACY_VISIBLE_REPLY_CAPABILITY,
  projectVisibleReplyContract,
} from '../../../../../main/daemon/prompt/legacy-projection.js';
import { compileDelivery, compileTurnContext } from '../../../../../main/daemon/prompt/prompt-compiler.js';
import { canResumeSession, compileThreadContract } from '../../../../../main/daemon/prompt/thread-contract.js';
import { sendSurfaceFor } from '../../../../../main/daemon/prompt/tool-names.js';
import { AgentConfigSchema, type AgentConfig } from '../../../../../shared/config.js';
import { agentFor, ALL_RUNTIMES, message, namingFor, configOf } from '../../../../fixtures/prompt-agents.js';

/** Every fingerprint a resume/replace/restart decision reads, for one agent. */
function decisionFingerprints(config: AgentConfig) {
  const agent = { ...config, toolNaming: namingFor(config.runtime, config.preset) };
  const surface = sendSurfaceFor(namingFor(agent.runtime));
  const thread = compileThreadContract(agent, surface);
  return {
    threadContract: thread.fingerprint,
    // Codex gets the thread-contract text as baseInstructions/developerInstructions.
    codexInstructions: fingerprint(thread.text),
    runtimePolicy: runtimePolicyFingerprint(agent, surface),
    runtimeStart: runtimeStartFingerprint(agent, { mcpUrl: 'http://127.0.0.1:4000/mcp?agent=x' }),
    fromTurnContext: compileTurnContext(agent, { turn: 'wake' }).threadContractFingerprint,
  };
}

/** Any value a historical toggle may hold in a stored config, a DTO or a projection. */
const legacyValue = fc.oneof(
  fc.constant(false),
  fc.constant(true),
  fc.constant(null),
  fc.constant('false'),
  fc.constant(0),
  fc.jsonValue(),
);

describe('canonical JSON', () => {
  it('sorts keys at every level and drops undefined members, so equal values hash equal', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"e":3,"f":2}]},"b":1}',
    );
    expect(fingerprint({ x: 1, y: 2 })).toBe(fingerprint({ y: 2, x: 1 }));
    expect(fingerprint({ x: 1 })).not.toBe(fingerprint({ x: 2 }));
    expect(fingerprint({ x: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(() => canonicalJson(Number.NaN)).toThrow();
  });
});

describe('fingerprints (contract §7.1, §8.1)', () => {
  it('§12: the visibleReplyContract.enabled projection does not change the thread contract fingerprint', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_RUNTIMES), legacyValue, legacyValue, (runtime, agentToggle, flatToggle) => {
        const plain = agentFor(runtime);
        const base = decisionFingerprints(plain);
        // A stored historical value, parsed through the real config schema…
        const stored = AgentConfigSchema.parse({
          ...configOf(plain),
          visibleReplyContract: { enabled: agentToggle },
          visible_reply_contract_enabled: flatToggle,
        });
        expect(decisionFingerprints(stored).threadContract).toBe(base.threadContract);
        // …and the projection a legacy client would receive, merged onto the agent.
        const projected = { ...plain, ...projectVisibleReplyContract([LEGACY_VISIBLE_REPLY_CAPABILITY], agentToggle) };
        expect(decisionFingerprints(projected).threadContract).toBe(base.threadContract);
      }),
      { numRuns: 100 },
    );
  });

  it('§12 (agent policy): policy, runtime start and Codex instruction fingerprints do not change with the visibleReplyContract projection', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_RUNTIMES), legacyValue, (runtime, toggle) => {
        const plain = agentFor(runtime);
        const withLegacy = {
          ...AgentConfigSchema.parse({
            ...configOf(plain),
            visibleReplyContract: { enabled: toggle },
            visible_reply_contract_enabled: toggle,
          }),
          ...legacyBehaviorSettings(toggle),
        };
        expect(decisionFingerprints(withLegacy)).toEqual(decisionFingerprints(plain));
      }),
      { numRuns: 100 },
    );
  });

  it('do not change with the contract block: a different block (another language, another turn kind) leaves every decision fingerprint alone', () => {
    for (const runtime of ALL_RUNTIMES) {
      const en = agentFor(runtime, 'en');
      const zh = agentFor(runtime, 'zh-CN');
      expect(compileTurnContext(en, { turn: 'wake' }).text).not.toBe(compileTurnContext(zh, { turn: 'wake' }).text);
      expect(decisionFingerprints(zh)).toEqual(decisionFingerprints(en));
      const wake = compileDelivery(en, [message()], { turn: 'wake' });
      const fresh = compileDelivery(en, [message()], { turn: 'fresh' });
      expect(wake.fingerprints.threadContract).toBe(decisionFingerprints(en).threadContract);
      expect(fresh.fingerprints.threadContract).toBe(wake.fingerprints.threadContract);
    }
  });

  it('the turn-context fingerprint includes the block: it changes when the block changes, and is stable otherwise', () => {
    const en = compileTurnContext(agentFor('codex', 'en'), { turn: 'wake' });
    const zh = compileTurnContext(agentFor('codex', 'zh-CN'), { turn: 'wake' });
    const cli = compileTurnContext(agentFor('codex', 'en'), { turn: 'wake', surface: 'cli' });
    expect(zh.fingerprint).not.toBe(en.fingerprint);
    expect(cli.fingerprint).not.toBe(en.fingerprint);
    expect(compileTurnContext(agentFor('codex', 'en'), { turn: 'resume' }).fingerprint).toBe(en.fingerprint);
    // The delivery content is not part of the turn context.
    expect(
      compileDelivery(agentFor('codex'), [message({ content: 'a' })], { turn: 'wake' }).fingerprints.turnContext,
    ).toBe(compileDelivery(agentFor('codex'), [message({ content: 'b' })], { turn: 'wake' }).fingerprints.turnContext);
  });

  it('do change with what they are about (so a stable fingerprint means something)', () => {
    const a = agentFor('claude-code');
    const base = decisionFingerprints(a);
    expect(decisionFingerprints({ ...a, model: 'claude-sonnet' }).runtimePolicy).not.toBe(base.runtimePolicy);
    expect(decisionFingerprints({ ...a, model: 'claude-sonnet' }).runtimeStart).not.toBe(base.runtimeStart);
    expect(decisionFingerprints({ ...a, args: ['--verbose'] }).runtimeStart).not.toBe(base.runtimeStart);
    expect(decisionFingerprints({ ...a, env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } }).runtimeStart).not.toBe(
      base.runtimeStart,
    );
    expect(decisionFingerprints({ ...a, name: 'Claude Two' }).threadContract).not.toBe(base.threadContract);
    expect(runtimeStartFingerprint(a, { mcpUrl: 'http://127.0.0.1:1/mcp' })).not.toBe(
      runtimeStartFingerprint(a, { mcpUrl: 'http://127.0.0.1:2/mcp' }),
    );
    const surfaceMcp = sendSurfaceFor(namingFor('claude-code'), 'mcp');
    const surfaceCli = sendSurfaceFor(namingFor('claude-code'), 'cli');
    expect(threadContractFingerprint(a, surfaceMcp, 'x')).not.toBe(threadContractFingerprint(a, surfaceCli, 'x'));
    expect(runtimePolicyFingerprint(a, surfaceMcp)).not.toBe(runtimePolicyFingerprint(a, surfaceCli));
  });

  it('are deterministic across calls and key order of env', () => {
    const a = agentFor('opencode', 'en', { env: { B: '2', A: '1' } });
    const b = agentFor('opencode', 'en', { env: { A: '1', B: '2' } });
    expect(decisionFingerprints(a)).toEqual(decisionFingerprints(b));
  });
});

describe('resume decisions (contract §8.1)', () => {
  it('use the thread-contract fingerprint: a new language or a legacy projection resumes, a new identity starts fresh', () => {
    const agent = agentFor('codex');
    const stored = compileThreadContract(agent, sendSurfaceFor(namingFor('codex'))).fingerprint;
    const current = (a: AgentConfig) => compileThreadContract(a, sendSurfaceFor(namingFor(a.runtime)));
    expect(canResumeSession(stored, current(agentFor('codex', 'zh-CN')))).toBe(true);
    expect(
      canResumeSession(
        stored,
        current(
          AgentConfigSchema.parse({
            ...configOf(agent),
            visibleReplyContract: { enabled: false },
            visible_reply_contract_enabled: false,
          }),
        ),
      ),
    ).toBe(true);
    expect(canResumeSession(stored, current({ ...agent, name: 'Renamed' }))).toBe(false);
    expect(canResumeSession(null, current(agent))).toBe(false);
  });
});
