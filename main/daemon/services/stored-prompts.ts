/**
 * The prompts an agent session writes into its runtime, over the store: deliveries compiled
 * from the stored messages (recorded in the prompt trajectory as they are compiled: turn
 * context + delivery, contract §8.4), final-checks recorded as `prompt_input` (§6.4, §8.4).
 */
import type { AgentConfig } from '../../../shared/config.js';
import { compileDelivery, type DeliveryMessage } from '../prompt/prompt-compiler.js';
import type { PromptTrajectory } from '../prompt/prompt-trajectory.js';
import type { Store } from '../store/index.js';
import type { AgentSessionPorts } from './agent-session.js';

export function storedPrompts(
  agent: AgentConfig,
  store: Store,
  trajectory: PromptTrajectory,
): Pick<AgentSessionPorts, 'renderDelivery' | 'recordPromptInput'> {
  return {
    renderDelivery(d, turn) {
      const messages: DeliveryMessage[] = [];
      for (const w of d.wakes) {
        const m = store.getMessage(w.messageId);
        if (m === undefined || w.targetKey === null) return null;
        messages.push({
          messageId: m.id,
          target: w.targetKey,
          targetSeq: w.targetSeq,
          wakeToken: w.wakeToken,
          authorName: m.authorName,
          content: m.content,
        });
      }
      // contract §8.1: the contract block rides every wake, resume and fresh turn.
      const compiled = compileDelivery(agent, messages, { turn });
      trajectory.record(compiled.promptInputs);
      return compiled.text;
    },
    recordPromptInput(r) {
      // Deliveries are already in the trajectory (compiled above).
      if (r.kind === 'final_check')
        store.appendPromptInput({
          agentId: r.agentId,
          wakeTokens: [...r.wakeTokens],
          kind: 'final_check',
          text: r.text,
        });
    },
  };
}
