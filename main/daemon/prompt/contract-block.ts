/**
 * The turn-only communication contract block (contract §8.1), in English and Simplified
 * Chinese. It is rendered into the dynamic turn context of every wake, resume and fresh
 * turn, and never into base/developer instructions, a contract carrier or a thread-contract
 * fingerprint: a change here takes effect on the next real turn without a restart.
 */
import type { PromptLanguage } from '../../../shared/config.js';
import { sendToolRef, type SendSurface } from './tool-names.js';

/** The six points of contract §8.1, in order; each rendered as one numbered line. */
export const CONTRACT_POINTS = [
  'local_output',
  'use_tool',
  'classify_first',
  'tool_first',
  'silent_end',
  'no_assumed_relay',
] as const;
export type ContractPoint = (typeof CONTRACT_POINTS)[number];

interface BlockCopy {
  readonly heading: string;
  readonly points: (tool: string) => Readonly<Record<ContractPoint, string>>;
}

const COPY: Readonly<Record<PromptLanguage, BlockCopy>> = {
  en: {
    heading: 'AgentTeam communication contract (applies to this turn):',
    points: (tool) => ({
      local_output:
        'Plain text, final text and any other runtime output stay local: they are never delivered to AgentTeam.',
      use_tool: `Every reply meant for participants (channel, DM, thread, task, review or completion) must go through the AgentTeam communication tool ${tool}.`,
      classify_first:
        'Before writing any analysis result, review conclusion, completion summary or other content participants might see, first decide whether AgentTeam participants should see it.',
      tool_first:
        'If they should, choose the communication tool first and write the content inside that tool call; do not draft it as local final text first.',
      silent_end: 'If no visible reply is needed, end the turn without user-facing prose.',
      no_assumed_relay: 'Never print a user-facing answer as final text and assume AgentTeam will deliver it.',
    }),
  },
  'zh-CN': {
    heading: 'AgentTeam 通信契约（本轮适用）：',
    points: (tool) => ({
      local_output: 'Plain text、final text 和其他 runtime 输出都只是本地输出，不会投递到 AgentTeam。',
      use_tool: `面向参与者的 channel、DM、thread、task、review 和 completion 回复，都必须使用 AgentTeam 通信工具 ${tool}。`,
      classify_first:
        '在开始撰写任何分析结果、review 结论、完成摘要或其他可能面向用户的内容之前，先判断这段内容是否应被 AgentTeam 参与者看到。',
      tool_first: '如果应该，先选择通信工具路径，并把正文写入该工具调用；不要先把正文写成本地 final text。',
      silent_end: '如果不需要可见回复，直接结束本轮，不输出面向用户的 prose。',
      no_assumed_relay: '不要把面向用户的回答打印成 final text，并假设 AgentTeam 会投递它。',
    }),
  },
};

/** The six rendered points of §8.1 for a surface and language (tests check each one is present). */
export function contractPoints(
  surface: SendSurface,
  language: PromptLanguage,
): Readonly<Record<ContractPoint, string>> {
  return COPY[language].points(sendToolRef(surface, language));
}

/** The contract block as it appears at the top of every turn context. */
export function renderContractBlock(surface: SendSurface, language: PromptLanguage): string {
  const points = contractPoints(surface, language);
  return [COPY[language].heading, ...CONTRACT_POINTS.map((p, i) => `${i + 1}. ${points[p]}`)].join('\n');
}
