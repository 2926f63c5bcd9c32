/**
 * issue 25: what an agent is told about its team, in English and Simplified Chinese.
 *
 * - The team block rides the dynamic turn context (contract §8.1 rules for turn-only context):
 *   the other agents (id, display name, runtime, ready or not) and how to ask one. It is part of
 *   the turn-context fingerprint only, never of the thread contract's (§8.1).
 * - The ask line precedes the envelope of an agent-caused delivery: who asked (display name and
 *   id) and the exact target to answer on; for a hand-back (§9.1 workflow callback,
 *   `signal_only`), whose reply it is and that no reply is required.
 */
import type { PromptLanguage } from '../../../shared/config.js';
import type { TargetKey } from '../../../shared/target.js';
import { attr, checkedId, checkedTarget } from './prompt-values.js';

/** One other agent of the team as the turn context lists it. */
export interface TeamMate {
  readonly id: string;
  readonly name: string;
  readonly runtime: string;
  readonly ready: boolean;
}

/** Who caused an agent-caused delivery (issue 25). */
export interface AskedBy {
  readonly cause: 'agent_mention' | 'hand_back';
  readonly agentId: string;
  readonly name: string;
}

const ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const safeId = (id: string): string => (ID.test(id) ? id : checkedId(id, 'agent id'));

const TEAM_COPY: Readonly<Record<PromptLanguage, { head: string; ready: string; notReady: string }>> = {
  en: {
    head: 'Other agents on this team. To ask one, mention it as @id in a message you send on the exact target you are answering; its reply there is handed back to you. Never ask yourself.',
    ready: 'ready',
    notReady: 'not ready',
  },
  'zh-CN': {
    head: '团队中的其他 agent。要请其中一位帮忙，在你回复的 exact target 上发送的消息中用 @id 提到它；它在那里的回复会转交给你。不要提到你自己。',
    ready: '可用',
    notReady: '不可用',
  },
};

/** The team block of the turn context; empty when the agent works alone. */
export function renderTeamBlock(mates: readonly TeamMate[], language: PromptLanguage): string {
  if (mates.length === 0) return '';
  const copy = TEAM_COPY[language];
  const lines = mates.map(
    (m) => `- @${safeId(m.id)} · ${attr(m.name)} · ${attr(m.runtime)} · ${m.ready ? copy.ready : copy.notReady}`,
  );
  return `<agentteam-team>\n${copy.head}\n${lines.join('\n')}\n</agentteam-team>`;
}

const ASK_COPY: Readonly<Record<PromptLanguage, Record<AskedBy['cause'], (who: string, target: string) => string>>> = {
  en: {
    agent_mention: (who, target) =>
      `${who} asked you in the message below. Answer on exactly "${target}"; your reply there is handed back to them.`,
    hand_back: (who, target) =>
      `${who} answered what you asked, in the message below on "${target}". Continue your work with it; post on "${target}" if there is something to tell, or end without a message.`,
  },
  'zh-CN': {
    agent_mention: (who, target) =>
      `${who} 在下面的消息中向你提问。请在 exact target "${target}" 上回复；你在那里的回复会转交给对方。`,
    hand_back: (who, target) =>
      `${who} 回答了你的问题，见下面 "${target}" 上的消息。请用它继续你的工作；有需要告知的内容就在 "${target}" 上发送，否则可以不发消息直接结束。`,
  },
};

/** The line before an agent-caused delivery's envelope. */
export function renderAskLine(asked: AskedBy, target: TargetKey, language: PromptLanguage): string {
  const who = `${attr(asked.name)} (@${safeId(asked.agentId)})`;
  const t = checkedTarget(target);
  return `<agentteam-ask cause="${asked.cause}" from="@${safeId(asked.agentId)}">\n${ASK_COPY[language][asked.cause](who, t)}\n</agentteam-ask>`;
}
