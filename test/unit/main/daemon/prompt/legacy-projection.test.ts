import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP_CAPABILITIES,
  legacyBehaviorSettings,
  LEGACY_VISIBLE_REPLY_CAPABILITY,
  projectVisibleReplyContract,
} from '../../../../../main/daemon/prompt/legacy-projection.js';
import { compileDelivery } from '../../../../../main/daemon/prompt/prompt-compiler.js';
import { renderFinalCheck } from '../../../../../main/daemon/prompt/final-check.js';
import { AgentConfigSchema, ConfigSchema, legacyToggles } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { agentFor, ALL_RUNTIMES, message, namingFor, configOf } from '../../../../fixtures/prompt-agents.js';

const root = join(import.meta.dirname, '../../../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|js|json|html)$/.test(name) ? [path] : [];
  });
}

describe('always-on compatibility (contract §7)', () => {
  it('§12 (agent policy): with a historical stored visible_reply_contract_enabled=false, a client declaring the capability still gets enabled=true', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.string()), (stored, otherCaps) => {
        expect(projectVisibleReplyContract([...otherCaps, LEGACY_VISIBLE_REPLY_CAPABILITY], stored)).toEqual({
          visibleReplyContract: { enabled: true },
        });
        expect(legacyBehaviorSettings(stored)).toEqual({ visibleReplyContract: { enabled: true } });
      }),
      { numRuns: 100 },
    );
    expect(projectVisibleReplyContract([LEGACY_VISIBLE_REPLY_CAPABILITY], false)?.visibleReplyContract.enabled).toBe(
      true,
    );
  });

  it('sends no projection to a client that does not declare the legacy capability (the current desktop)', () => {
    expect(projectVisibleReplyContract([], false)).toBeNull();
    expect(projectVisibleReplyContract(DESKTOP_CAPABILITIES, true)).toBeNull();
    expect(projectVisibleReplyContract(['agent:visible-reply-contract-v2'], false)).toBeNull();
  });

  it('the app never declares agent:visible-reply-contract-v1: only the projection module names it', () => {
    expect(DESKTOP_CAPABILITIES).not.toContain(LEGACY_VISIBLE_REPLY_CAPABILITY);
    const offenders = ['main', 'shared', 'renderer', 'preload']
      .filter((d) => {
        try {
          return statSync(join(root, d)).isDirectory();
        } catch {
          return false;
        }
      })
      .flatMap((d) => sourceFiles(join(root, d)))
      .filter((f) => readFileSync(f, 'utf8').includes(LEGACY_VISIBLE_REPLY_CAPABILITY))
      .map((f) => relative(root, f));
    expect(offenders).toEqual(['main/daemon/prompt/legacy-projection.ts']);
  });

  it('historical false values have no effect on any prompt: the contract is rendered exactly as without them', () => {
    for (const runtime of ALL_RUNTIMES) {
      const plain = agentFor(runtime);
      const disabled = AgentConfigSchema.parse({
        ...configOf(plain),
        visibleReplyContract: { enabled: false },
        visible_reply_contract_enabled: false,
      });
      const config = ConfigSchema.parse({
        agents: [disabled],
        visibleReplyContract: { enabled: false },
        visible_reply_contract_enabled: false,
      });
      expect(legacyToggles(config).length).toBeGreaterThan(0);
      expect(compileDelivery({ ...disabled, toolNaming: plain.toolNaming }, [message()], { turn: 'wake' }).text).toBe(
        compileDelivery(plain, [message()], { turn: 'wake' }).text,
      );
      const groups = [
        { target: targetKey('#general'), wakes: [{ messageId: 'm_1', targetSeq: 1, wakeToken: 'wk_1' }] },
      ];
      expect(renderFinalCheck(groups, { naming: namingFor(runtime), language: disabled.language })).toBe(
        renderFinalCheck(groups, { naming: namingFor(runtime), language: plain.language }),
      );
    }
  });

  it('offers no toggle: the prompt compiler takes no enabled/contract switch in its options', () => {
    // The compile options type has exactly these keys; an `enabled` switch would be a type error.
    const options: Parameters<typeof compileDelivery>[2] = { turn: 'wake', surface: 'mcp' };
    expect(Object.keys(options).sort()).toEqual(['surface', 'turn']);
    // @ts-expect-error there is no switch to turn the visible-reply contract off
    const _off: Parameters<typeof compileDelivery>[2] = { turn: 'wake', visibleReplyContract: { enabled: false } };
    expect(_off.turn).toBe('wake');
  });
});
