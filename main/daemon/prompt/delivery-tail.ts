/**
 * The delivery-tail reminder (contract §8.2): short, appended once at the end of each
 * delivery, naming the runtime's concrete send tool and the exact target(s) of the inputs,
 * and putting the "does this need a visible reply?" decision before any writing. It is the
 * delivery's only send instruction: no second, equivalent self-check is ever added.
 */
import type { PromptLanguage } from '../../../shared/config.js';
import type { TargetKey } from '../../../shared/target.js';
import {
  cliSendCommand,
  crossTargetInstruction,
  sendInstruction,
  sendToolRef,
  type SendSurface,
} from './tool-names.js';

const quoted = (targets: readonly TargetKey[], sep: string): string => targets.map((t) => `"${t}"`).join(sep);

/** `targets`: the distinct exact targets of the delivery's inputs, in delivery order (at least one). */
export function renderTailReminder(
  surface: SendSurface,
  language: PromptLanguage,
  targets: readonly TargetKey[],
): string {
  const [first] = targets;
  if (first === undefined) throw new Error('internal: a delivery-tail reminder needs at least one target');
  const zh = language === 'zh-CN';
  const cross = crossTargetInstruction(surface, language);
  let send: string;
  if (targets.length === 1) {
    send = zh
      ? `如果需要回复这条输入，不要输出 plain/final text；请先${sendInstruction(surface, language, first)}。`
      : `To reply to this input, do not write plain/final text: ${sendInstruction(surface, language, first)}.`;
  } else if (surface.kind === 'cli') {
    const cmd = `\`${cliSendCommand('<target>')}\``;
    send = zh
      ? `如果需要回复这些输入，不要输出 plain/final text；请为每个需要回复的 conversation 分别运行 ${cmd}，使用它的精确 target（${quoted(targets, '、')}）。`
      : `To reply to these inputs, do not write plain/final text: for each conversation that needs a reply, run ${cmd} with its exact target (${quoted(targets, ', ')}).`;
  } else {
    const ref = sendToolRef(surface, language);
    send = zh
      ? `如果需要回复这些输入，不要输出 plain/final text；请为每个需要回复的 conversation 分别调用 ${ref}，使用它的精确 target（${quoted(targets, '、')}），并把正文写入 content。`
      : `To reply to these inputs, do not write plain/final text: for each conversation that needs a reply, call ${ref} with its exact target (${quoted(targets, ', ')}) and put the reply in content.`;
  }
  return zh
    ? `结束前先自检：在撰写任何分析结果、review 结论或完成摘要之前，先判断它是否要给 AgentTeam 参与者看。${send}${cross}如果不需要可见回复，请停止，不要输出面向用户的 final answer。`
    : `Self-check before you write: first decide whether your result is for AgentTeam participants. ${send} ${cross} If no visible reply is needed, stop without a user-facing final answer.`;
}
