/**
 * The prompts an agent session writes into its runtime, over the store: deliveries compiled
 * from the stored messages (recorded in the prompt trajectory as they are compiled: turn
 * context + delivery, contract §8.4), final-checks recorded as `prompt_input` (§6.4, §8.4).
 *
 * A synthetic recovery wake (contract §6.6, issue 16) is compiled as the recovery continuation
 * of its persisted marker: the exact target and frontier, the cause, and the stored inputs of
 * that target that provably never reached a reply (above the agent's RepliedUpToSeq) again.
 */
import type { AgentConfig } from '../../../shared/config.js';
import {
  compilePrompt,
  resumePart,
  deliveryPart,
  type ResumedWake,
  recoveryPart,
  type DeliveryMessage,
  type PromptPart,
  type RecoveryPromptCause,
} from '../prompt/prompt-compiler.js';
import { renderOverflowContinuation } from '../prompt/overflow-continuation.js';
import type { PromptTrajectory } from '../prompt/prompt-trajectory.js';
import { toolNamingOf } from '../runtime/registry.js';
import type { TeamMate } from '../prompt/team-context.js';
import { markerIdOfRecoveryMessage } from '../store/store-ids.js';
import type { Store } from '../store/index.js';
import { RECOVERY_CAUSES } from '../wake/pending-delivery.js';
import type { WakeDelivery } from '../wake/wake-lifecycle.js';
import type { AgentSessionPorts } from './agent-session.js';

type DeliveryWake = WakeDelivery['wakes'][number];

export function storedPrompts(
  agent: AgentConfig,
  store: Store,
  trajectory: PromptTrajectory,
  /** issue 25: the other agents of the team now (the turn context lists them). */
  team?: () => readonly TeamMate[],
): Pick<AgentSessionPorts, 'renderDelivery' | 'recordPromptInput' | 'renderContinuation'> {
  // issue 39: the agent's runtime names our tools as its descriptor says.
  const toolNaming = toolNamingOf(agent);
  const promptAgent = { ...agent, toolNaming };
  const stored = (w: DeliveryWake): DeliveryMessage | null => {
    const m = store.getMessage(w.messageId);
    if (m === undefined || w.targetKey === null) return null;
    // issue 25: an agent-caused wake names who asked (or whose reply is handed back).
    const wake = store.getWake(w.wakeToken);
    const cause = wake?.cause;
    const askedBy =
      (cause === 'agent_mention' || cause === 'hand_back') && wake?.askedById != null
        ? { cause, agentId: wake.askedById, name: wake.askedByName ?? wake.askedById }
        : undefined;
    return {
      messageId: m.id,
      target: w.targetKey,
      targetSeq: w.targetSeq,
      wakeToken: w.wakeToken,
      authorName: m.authorName,
      content: m.content,
      ...(askedBy === undefined ? {} : { askedBy }),
    };
  };

  /** contract §6.6: the continuation of one marker, or null when the marker is gone. */
  const recovery = (w: DeliveryWake): PromptPart | null => {
    const markerId = markerIdOfRecoveryMessage(w.messageId);
    const marker = markerId === null ? undefined : store.getRecoveryMarker(markerId);
    if (marker === undefined) return null;
    const { repliedUpToSeq } = store.agentCursor(agent.id, marker.target);
    const again = new Map<string, DeliveryMessage>();
    for (const token of marker.wakeTokens) {
      const original = store.getWake(token);
      const m = original === undefined ? undefined : store.getMessage(original.messageId);
      if (m === undefined || m.target !== marker.target || m.seq <= repliedUpToSeq) continue;
      again.set(m.id, {
        messageId: m.id,
        target: m.target,
        targetSeq: m.seq,
        wakeToken: token,
        authorName: m.authorName,
        content: m.content,
      });
    }
    const cause = (RECOVERY_CAUSES as readonly string[]).includes(marker.cause ?? '')
      ? (marker.cause as RecoveryPromptCause)
      : undefined;
    return recoveryPart(
      promptAgent,
      {
        syntheticMessageId: marker.syntheticMessageId,
        wakeToken: w.wakeToken,
        target: marker.target,
        targetSeq: marker.frontierSeq,
      },
      {
        ...(cause === undefined ? {} : { cause }),
        messages: [...again.values()].sort((a, b) => a.targetSeq - b.targetSeq),
      },
    );
  };

  return {
    renderDelivery(d, turn) {
      const messages: DeliveryMessage[] = [];
      const recoveries: PromptPart[] = [];
      const resumed: ResumedWake[] = [];
      for (const w of d.wakes) {
        // issue 38: the session already holds this input (a usage pause took it back): continue it.
        if (w.resumed === true && w.targetKey !== null) {
          resumed.push({ target: w.targetKey, targetSeq: w.targetSeq, wakeToken: w.wakeToken });
          continue;
        }
        if (markerIdOfRecoveryMessage(w.messageId) !== null) {
          const r = recovery(w);
          if (r === null) return null;
          recoveries.push(r);
          continue;
        }
        const m = stored(w);
        if (m === null) return null;
        messages.push(m);
      }
      // contract §8.1: the contract block rides every wake, resume and fresh turn, and §8.2 the
      // tail ends the delivery: each once per written prompt, however many parts it has (issue 24).
      const parts = [
        ...recoveries,
        ...(resumed.length > 0 ? [resumePart(resumed, agent.language)] : []),
        ...(messages.length > 0 ? [deliveryPart(messages, agent.language)] : []),
      ];
      if (parts.length === 0) return null;
      const mates = team?.() ?? [];
      const prompt = compilePrompt(promptAgent, parts, {
        turn,
        surface: agent.agentTools,
        ...(mates.length > 0 ? { team: mates } : {}),
      });
      trajectory.record(prompt.promptInputs);
      return prompt.text;
    },
    // issue 38: named with the agent's own send surface and tool, as its deliveries are.
    renderContinuation(wakes) {
      return renderOverflowContinuation(wakes, {
        naming: toolNaming,
        language: agent.language,
        surface: agent.agentTools,
      });
    },
    recordPromptInput(r) {
      // Deliveries are already in the trajectory (compiled above).
      if (r.kind !== 'delivery')
        store.appendPromptInput({ agentId: r.agentId, wakeTokens: [...r.wakeTokens], kind: r.kind, text: r.text });
    },
  };
}
