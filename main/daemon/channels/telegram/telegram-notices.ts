/**
 * What the Telegram channel posts in a bound chat besides replies, each through the delivery
 * tracker under a deterministic response id (the same notice is never posted twice):
 * - its own silence beacons (spec A on this channel), `<agent> · 🧠 Working…`;
 * - delivery alerts (failed / unconfirmed, no response) as neutral notices (purpose `alert`):
 *   never written as the agent, never a reply;
 * - issue 24 (the local status area's rule): each agent's outcome is its own notice,
 *   `<agent> · <status>` like a beacon, never `<agent>: …` like a reply. A wake that ends `failed`
 *   is posted at once with its reason in plain words; a notice is a message of its own, so another
 *   agent's beacons or reply never hide it. A turn that ended with nothing sent is the no-response
 *   notice (governed by this channel's `alertOnNoResponse`);
 * - issue 27: a usage warning raised in a bound conversation, once (the alert's id);
 * - issue 40 item 8: a pause (usage limit, daily budget) that reaches a bound conversation's wakes,
 *   once per pause and conversation (the pause's episode: its probes are not new pauses), with its reset.
 */
import { failureWords, httpStatusOf } from '../../../../shared/agent-readiness.js';
import type { Alert } from '../../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../../shared/config.js';
import { isFailureReason, type PauseKind } from '../../../../shared/wake-status.js';
import { usageWarningWords, type UsageWarningFacts } from '../../alerts/usage-warning-words.js';
import type { DeliveryAlert } from '../../delivery/delivery-tracker.js';
import type { WakeStatusEvent } from '../../wake/wake-status-event.js';
import { beaconText } from '../../watchdog/beacon-router.js';
import type { Beacon } from '../../watchdog/silence-beacons.js';
import type { ChannelContext } from '../channel-plugin.js';

/** Response ids of what this channel sends (replies, beacons, notices) start with this. */
export const MIRROR_PREFIX = 'tg:';

/** issue 24: the status words of the chat's notices (neutral, UI.md "Chips and copy"), in the app's language. */
const STATUS_WORDS: Record<
  PromptLanguage,
  {
    readonly failed: string;
    readonly interrupted: string;
    readonly noResponse: string;
    readonly paused: string;
    readonly pausedUntil: (time: string) => string;
    readonly pause: Record<PauseKind, string>;
    readonly resumes: string;
  }
> = {
  en: {
    failed: "Couldn't complete",
    interrupted: 'Interrupted',
    noResponse: 'Turn ended without a message — back to idle',
    paused: 'Paused',
    pausedUntil: (time) => `Paused until ${time}`,
    pause: {
      usage_limit: 'usage limit',
      daily_budget: 'daily budget reached',
      waiting_for_memory: 'waiting for memory',
      waiting_for_start: 'waiting for other agents to start',
    },
    resumes: 'The work waits in its place and goes on after the reset; the app has Try now.',
  },
  'zh-CN': {
    failed: '未能完成',
    interrupted: '已中断',
    noResponse: '本轮结束，未发送消息，已回到空闲',
    paused: '已暂停',
    pausedUntil: (time) => `已暂停，直到 ${time}`,
    pause: {
      usage_limit: '用量上限',
      daily_budget: '已达每日预算',
      waiting_for_memory: '等待可用内存',
      waiting_for_start: '等待其他智能体启动',
    },
    resumes: '工作保留在原位，重置后继续；应用中可选择“立即重试”。',
  },
};

/** The reset as the operator's clock says it (the daemon runs on their machine), e.g. `14:05`. */
const hhmm = (ms: number): string => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

export interface TelegramNoticesOptions {
  readonly context: Pick<
    ChannelContext<unknown>,
    'name' | 'tracker' | 'agentName' | 'runtimeWords' | 'language' | 'wakeOf' | 'pauseOf'
  >;
  /** Whether a conversation is bound to a chat. */
  readonly bound: (target: string) => boolean;
  /** Without a token nothing can reach the chat: Settings says so once, rather than a notice each. */
  readonly canSend: () => boolean;
}

export class TelegramNotices {
  readonly #o: TelegramNoticesOptions;

  constructor(o: TelegramNoticesOptions) {
    this.#o = o;
  }

  /** A beacon of a bound turn (this channel's own watchdog). */
  beacon(b: Beacon): void {
    if (b.target === null || !this.#o.canSend()) return;
    const { context: c } = this.#o;
    void c.tracker
      .send({
        channel: c.name,
        turnId: b.turnId,
        agentId: b.agentId,
        target: b.target,
        content: `${c.agentName(b.agentId)} · ${beaconText(b)}`,
        purpose: 'beacon',
        // Deterministic: the same beacon is never posted twice.
        responseId: `${MIRROR_PREFIX}beacon:${b.turnId}:${b.index}`,
      })
      .catch(() => undefined);
  }

  /** A delivery alert about a bound conversation, as a neutral notice in the chat (never as the agent). */
  alert(a: DeliveryAlert): void {
    if (a.target === null || !this.#postable(a.target)) return;
    const { name, agentName, language } = this.#o.context;
    const where = a.channel === name ? 'in this chat' : `in ${a.target}`;
    const text =
      a.kind === 'no_response'
        ? // issue 24: a status, worded like a beacon (`<agent> · …`), never like a reply (`<agent>: …`).
          `ℹ️ ${agentName(a.agentId)} · ${STATUS_WORDS[language()].noResponse}`
        : a.kind === 'delivery_uncertain'
          ? `⚠️ ${a.message}: a reply from ${agentName(a.agentId)} ${where} may not have arrived. It was not resent, to avoid a duplicate; the app has it.`
          : `⚠️ ${a.message}: a reply from ${agentName(a.agentId)} ${where}.`;
    this.#post(a.agentId, a.target, a.turnId ?? `alert_${a.id}`, `alert:${a.id}`, text);
  }

  /** issue 27: a usage warning (80 % of a limit window or a daily budget) raised in a bound conversation. */
  usageWarning(agentId: string, alert: Alert, warning: UsageWarningFacts): void {
    if (alert.target === null || !this.#postable(alert.target)) return;
    const { agentName, language } = this.#o.context;
    const text = `⚠️ ${usageWarningWords(agentName(agentId), warning, language())}`;
    this.#post(agentId, alert.target, `usage_${alert.id}`, `alert:${alert.id}`, text);
  }

  /** issue 24: a bound wake that ended `failed`: its own notice, the reason in plain words and the fix. */
  failed(e: WakeStatusEvent): void {
    if (!this.#postable(e.target)) return;
    const language = this.#o.context.language();
    const reason = isFailureReason(e.reason) ? e.reason : 'runtime_error';
    // The recovery markers are saved with the terminal (one transaction): a continued failure says so.
    const continued = (this.#o.context.wakeOf(e.wakeToken)?.recoveries ?? 0) > 0;
    const words = failureWords(reason, language, {
      words: this.#o.context.runtimeWords(e.agentId),
      httpStatus: httpStatusOf(e.detail),
      continued,
    });
    const status = continued ? STATUS_WORDS[language].interrupted : STATUS_WORDS[language].failed;
    const text = `⚠️ ${e.agentDisplayName} · ${status} — ${words}`;
    // Deterministic: one notice per wake, ever.
    this.#post(e.agentId, e.target, `outcome_${e.wakeToken}`, `outcome:${e.wakeToken}`, text);
  }

  /**
   * issue 40 item 8: a wake of a bound conversation was paused: one neutral notice per pause and
   * conversation — `⏸ Demo · Paused until 14:05 · usage limit` — its id the pause's episode, so the
   * other wakes it holds and each probe of an unknown reset say nothing more.
   */
  paused(e: WakeStatusEvent): void {
    if (!this.#postable(e.target)) return;
    const pause = this.#o.context.pauseOf(e.agentId);
    const kind: PauseKind = pause?.kind ?? (e.reason === 'daily_budget' ? 'daily_budget' : 'usage_limit');
    const words = STATUS_WORDS[this.#o.context.language()];
    const head = pause?.resetsAt == null ? words.paused : words.pausedUntil(hhmm(pause.resetsAt));
    const text = `⏸ ${e.agentDisplayName} · ${head} · ${words.pause[kind]}. ${words.resumes}`;
    const episode = pause?.pausedAt ?? e.at;
    this.#post(e.agentId, e.target, `pause_${e.agentId}_${episode}`, `pause:${e.agentId}:${episode}:${e.target}`, text);
  }

  #postable(target: string): boolean {
    return this.#o.canSend() && this.#o.bound(target);
  }

  /** A neutral notice in the chat (purpose `alert`: never a reply, never resets the watchdog). */
  #post(agentId: string, target: string, turnId: string, id: string, content: string): void {
    void this.#o.context.tracker
      .send({
        channel: this.#o.context.name,
        turnId,
        agentId,
        target,
        content,
        purpose: 'alert',
        responseId: `${MIRROR_PREFIX}${id}`,
      })
      .catch(() => undefined);
  }
}
