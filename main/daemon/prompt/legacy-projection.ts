/**
 * Compatibility with clients from before the visible-reply contract was always on (contract §7).
 *
 * There is no toggle: the contract is always on, historical `false` values (per agent, per
 * account, `visible_reply_contract_enabled` in old files) have no effect, and this desktop never
 * declares `agent:visible-reply-contract-v1`. For a client that still declares it, the only
 * surface is a pure projection that always says `enabled=true` (§7.1). The projection is not a
 * run boundary: no fingerprint reads it (fingerprints.ts picks its inputs field by field) and it
 * never restarts or replaces a runtime (§7.2).
 */

/** The capability only old desktops declare (§7.1). */
export const LEGACY_VISIBLE_REPLY_CAPABILITY = 'agent:visible-reply-contract-v1';

/**
 * The capabilities this desktop declares when it describes itself. §7: never the legacy
 * visible-reply capability (a test scans the source tree to keep it that way).
 */
export const DESKTOP_CAPABILITIES: readonly string[] = Object.freeze([]);

export interface VisibleReplyContractProjection {
  readonly visibleReplyContract: { readonly enabled: true };
}

const PROJECTION: VisibleReplyContractProjection = Object.freeze({
  visibleReplyContract: Object.freeze({ enabled: true as const }),
});

/**
 * The projection for a client's machine catalog / `agent:start` config: `enabled=true` for a
 * client that declares the legacy capability, whatever was stored; nothing for any other client.
 * `_stored` is accepted only to make explicit that a historical value is ignored.
 */
export function projectVisibleReplyContract(
  clientCapabilities: readonly string[],
  _stored?: unknown,
): VisibleReplyContractProjection | null {
  return clientCapabilities.includes(LEGACY_VISIBLE_REPLY_CAPABILITY) ? PROJECTION : null;
}

/** The legacy behaviour-settings DTO: always `enabled=true` (§7). */
export function legacyBehaviorSettings(_stored?: unknown): VisibleReplyContractProjection {
  return PROJECTION;
}
