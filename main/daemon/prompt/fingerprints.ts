/**
 * Fingerprints (contract §7.1, §8.1): sha256 over canonical JSON.
 *
 * - thread-contract: decides whether a provider session can resume. Built from an allowlist
 *   of identity fields and the thread-contract text only, so neither the turn-only contract
 *   block nor any visible-reply projection or legacy toggle can reach it.
 * - runtime-policy and runtime-start: decide whether a running runtime must be replaced or
 *   restarted. Same allowlist rule.
 * - turn-context: for prompt inspection and diagnostics only; it does include the block.
 *
 * Each input is picked field by field from the agent config instead of hashing the config
 * object, which is what keeps `visibleReplyContract` and `visible_reply_contract_enabled`
 * out of every fingerprint whatever they hold (§7.1 "该投影不参与 … fingerprint").
 */
import { createHash } from 'node:crypto';
import type { AgentConfig } from '../../../shared/config.js';
import type { SendSurface } from './tool-names.js';

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json | undefined };

/** JSON with object keys sorted at every level and `undefined` members dropped. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`internal: canonicalJson cannot encode ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v: Json) => canonicalJson(v)).join(',')}]`;
  const obj = value as { readonly [key: string]: Json | undefined };
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k] as Json)}`).join(',')}}`;
}

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function fingerprint(value: Json): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** Bump when the meaning of a fingerprint's input changes, so old sessions stop resuming. */
const FINGERPRINT_VERSION = 1;

/** The agent fields a fingerprint may read; nothing else of the config (legacy toggles included) is visible. */
export type FingerprintAgent = Pick<
  AgentConfig,
  'id' | 'name' | 'runtime' | 'command' | 'args' | 'env' | 'cwd' | 'model'
> &
  Partial<Pick<AgentConfig, 'preset'>>;

/**
 * Thread-contract fingerprint: resume decisions compare this one (§8.1). `threadContractText`
 * is what the runtime gets as base/developer instructions (see `compileThreadContract`).
 */
export function threadContractFingerprint(
  agent: FingerprintAgent,
  surface: SendSurface,
  threadContractText: string,
): string {
  return fingerprint({
    v: FINGERPRINT_VERSION,
    kind: 'thread_contract',
    agentId: agent.id,
    runtime: agent.runtime,
    surface: { kind: surface.kind, sendTool: surface.sendTool, namespace: surface.namespace },
    instructions: threadContractText,
  });
}

/** Runtime-policy fingerprint: the model and the tool surface the runtime is allowed to use. */
export function runtimePolicyFingerprint(agent: FingerprintAgent, surface: SendSurface): string {
  return fingerprint({
    v: FINGERPRINT_VERSION,
    kind: 'runtime_policy',
    runtime: agent.runtime,
    model: agent.model,
    surface: { kind: surface.kind, sendTool: surface.sendTool, namespace: surface.namespace },
  });
}

/**
 * Runtime-start fingerprint: everything a runtime process is started with. `start` carries
 * what the adapter adds on top of the agent config (its MCP endpoint, protocol flags, …);
 * callers must not put a visible-reply projection in it.
 */
export function runtimeStartFingerprint(agent: FingerprintAgent, start: { readonly [key: string]: Json } = {}): string {
  return fingerprint({
    v: FINGERPRINT_VERSION,
    kind: 'runtime_start',
    runtime: agent.runtime,
    command: agent.command,
    args: agent.args,
    env: agent.env,
    cwd: agent.cwd,
    model: agent.model,
    // issue 28: only an ACP agent has one (older fingerprints stay the same).
    ...(agent.preset === undefined ? {} : { preset: agent.preset }),
    start,
  });
}

/** Turn-context fingerprint: includes the rendered contract block (§8.1: allowed for inspection/diagnostics). */
export function turnContextFingerprint(threadContract: string, turnContextText: string): string {
  return fingerprint({ v: FINGERPRINT_VERSION, kind: 'turn_context', threadContract, text: turnContextText });
}
