/**
 * Approvals answered from the phone (issue 14 × issue 18). People follow a conversation from its
 * bound Telegram chat; an agent waiting for the operator there must not leave them stuck:
 *
 * - Which chats: an approval is posted in the chat bound to a conversation one of its wakes
 *   answers (the running turn's targets) — the same rule that mirrors that turn's replies there,
 *   whether the waking message was typed on the phone or in the app. Not "any chat of that agent":
 *   a request about work for an unbridged conversation (its command, its file path) is never
 *   shown to a chat that never saw that conversation.
 * - The question "✋ <agent> asks: <summary>" carries Allow once / Deny (`inline_keyboard`, callback_data
 *   `ap:a|d:<id>`) only when it shows the whole summary (issue 29); with an exact rule, shown as its
 *   last line, also For this session / Always (`ap:s|w:<id>`, issue 40 item 4); a longer one is shown cut with
 *   "open AgentTeam to answer", no buttons, and a press forged for it is refused. A press from a
 *   user in that binding's `allowFrom` answers through the approval service's own `answer` (the
 *   button's scope) — the call `approvals.answer` makes for IPC, WebSocket and CLI; anyone else is told they
 *   are not allowed, and nothing changes. Every press is answered
 *   (`answerCallbackQuery`), or the phone shows a spinner.
 * - Every settlement (from the phone, the app, the CLI, expiry, cancel) edits the posted message
 *   to its outcome and removes the keyboard (`editMessageText` without `reply_markup`).
 *
 * Posted messages are remembered in memory only: a daemon restart cancels every pending approval
 * (approval-service `cancelStale`), and a press on a button left from before is answered "already
 * cancelled" and edits that message then.
 */
import type { Api } from 'grammy';
import type { CallbackQuery } from 'grammy/types';
import type { Subscription } from 'rxjs';
import { ApiError } from '../../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../../shared/config.js';
import type { DaemonLog } from '../../daemon-log.js';
import type { ApprovalRecord } from '../../store/index.js';
import { classifyTelegramError, describeTelegramError } from './telegram-api.js';
import {
  alreadySettled,
  answered,
  approvalButtonData,
  approvalCopy,
  approvalFitsChat,
  approvalOutcome,
  approvalQuestion,
  approvalScopesFitChat,
  parseApprovalButton,
} from './telegram-approval-text.js';
import type { EffectiveBinding } from './telegram-bindings.js';
import { userName } from './inline-offers.js';
import type { ChannelApprovalPort } from '../channel-plugin.js';

export interface TelegramApprovalsOptions {
  readonly approvals: ChannelApprovalPort;
  readonly api: () => Api | null;
  readonly forChat: (chatId: number) => EffectiveBinding | undefined;
  readonly forTarget: (target: string) => EffectiveBinding | undefined;
  /** The conversation a wake answers (its target), if the wake is known. */
  readonly wakeTarget: (wakeToken: string) => string | undefined;
  readonly agentName: (agentId: string) => string;
  readonly language: () => PromptLanguage;
  readonly log: DaemonLog;
  /** A press was accepted (it reached the approval service) or refused (not allowed, unknown). */
  readonly counted?: (accepted: boolean, reason: string) => void;
  /** First wait before retrying a send or an edit that provably did not take. Default 1 s. */
  readonly retryDelayMs?: number;
}

interface Post {
  readonly chatId: number;
  /** Resolves with the message id, or null when the question could not be posted. */
  readonly sent: Promise<number | null>;
}

interface Posted {
  readonly question: string;
  readonly posts: Post[];
}

const ATTEMPTS = 3;
const OUTCOMES_KEPT = 256;

export class TelegramApprovals {
  readonly #o: TelegramApprovalsOptions;
  readonly #posted = new Map<string, Posted>();
  /** Who answered from Telegram, by approval id, for the outcome line ("Allowed by @ann"). */
  readonly #answeredBy = new Map<string, string>();
  /** The outcome text of recently settled questions, so a late press re-shows the same text (bounded). */
  readonly #outcomes = new Map<string, string>();
  #sub: Subscription | null = null;

  constructor(o: TelegramApprovalsOptions) {
    this.#o = o;
  }

  /** Follows the approvals: a pending one is asked in its chats, a settled one's buttons go. */
  start(): void {
    this.#sub ??= this.#o.approvals.changes$.subscribe((r) =>
      r.status === 'pending' ? this.#ask(r) : this.#settled(r),
    );
  }

  stop(): void {
    this.#sub?.unsubscribe();
  }

  /** The chats bound to the conversations the approval's wakes answer (one post per chat). */
  #chatsOf(r: ApprovalRecord): EffectiveBinding[] {
    const byChat = new Map<number, EffectiveBinding>();
    for (const token of r.wakeTokens) {
      const target = this.#o.wakeTarget(token);
      const binding = target === undefined ? undefined : this.#o.forTarget(target);
      if (binding !== undefined) byChat.set(binding.chatId, binding);
    }
    return [...byChat.values()];
  }

  #ask(r: ApprovalRecord): void {
    const api = this.#o.api();
    const chats = this.#chatsOf(r);
    if (api === null || chats.length === 0) return;
    const lang = this.#o.language();
    const question = approvalQuestion(lang, this.#o.agentName(r.agentId), r);
    // issue 29: buttons only on a question that shows the whole command; otherwise it says to answer in the app.
    const keyboard = approvalFitsChat(r.summary)
      ? {
          reply_markup: {
            inline_keyboard: [
              [
                { text: approvalCopy(lang, 'allow'), callback_data: approvalButtonData('allow', r.id) },
                { text: approvalCopy(lang, 'deny'), callback_data: approvalButtonData('deny', r.id) },
              ],
              // issue 40 item 4: the rule they add is the question's last line.
              ...(approvalScopesFitChat(r)
                ? [
                    [
                      {
                        text: approvalCopy(lang, 'allowSession'),
                        callback_data: approvalButtonData('allow', r.id, 'session'),
                      },
                      {
                        text: approvalCopy(lang, 'allowAlways'),
                        callback_data: approvalButtonData('allow', r.id, 'always'),
                      },
                    ],
                  ]
                : []),
            ],
          },
        }
      : {};
    const posts = chats.map(({ chatId }) => ({
      chatId,
      sent: this.#retry('post', false, () =>
        api.sendMessage(chatId, question, { ...keyboard, link_preview_options: { is_disabled: true } }),
      ).then((m) => m?.message_id ?? null),
    }));
    this.#posted.set(r.id, { question, posts });
  }

  /** Settled anywhere: each posted question shows the outcome, its keyboard removed. */
  #settled(r: ApprovalRecord): void {
    const posted = this.#posted.get(r.id);
    if (posted === undefined) return;
    this.#posted.delete(r.id);
    const who = this.#answeredBy.get(r.id) ?? null;
    this.#answeredBy.delete(r.id);
    const text = approvalOutcome(this.#o.language(), posted.question, r, who);
    this.#outcomes.set(r.id, text);
    if (this.#outcomes.size > OUTCOMES_KEPT) this.#outcomes.delete(this.#outcomes.keys().next().value ?? '');
    for (const post of posted.posts)
      // A question still being posted is edited once Telegram gave its message id.
      void post.sent.then((messageId) => {
        if (messageId !== null) this.#edit(post.chatId, messageId, text);
      });
  }

  #edit(chatId: number, messageId: number, text: string): void {
    const api = this.#o.api();
    if (api === null) return;
    // No reply_markup: Telegram removes the inline keyboard. An edit is idempotent, so an ambiguous one is retried.
    void this.#retry('edit', true, () => api.editMessageText(chatId, messageId, text));
  }

  /** Retries what provably did not take (and, for an idempotent edit, what may not have); never throws. */
  async #retry<T>(what: string, idempotent: boolean, call: () => Promise<T>): Promise<T | null> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        const detail = describeTelegramError(error);
        // Editing to the text it already has: the outcome is shown.
        if (detail.includes('message is not modified')) return null;
        const failure = classifyTelegramError(error, (this.#o.retryDelayMs ?? 1000) * attempt);
        const transient =
          failure.kind === 'connection_refused' ||
          failure.kind === 'server_error' ||
          failure.kind === 'rate_limited' ||
          (idempotent && (failure.kind === 'timeout_after_send' || failure.kind === 'connection_lost_after_send'));
        if (!transient || attempt >= ATTEMPTS) {
          // The approval stays answerable in the app and the CLI; the chat only misses the question or its outcome.
          this.#o.log.warn(`telegram: approval ${what} failed`, { error: detail, attempt });
          return null;
        }
        const wait = failure.kind === 'rate_limited' ? failure.retryAfterMs : (this.#o.retryDelayMs ?? 1000) * attempt;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /**
   * A button press. Operator-only rule (issue 14 "Only the operator's authenticated surfaces can
   * answer"): a Telegram user listed in the binding's `allowFrom` is the operator's identity on this
   * channel — Telegram itself authenticates `callback_query.from`, and the bot token never reaches a
   * runtime (runtime-env.ts) — so such a press is the operator answering, like the IPC gate, the
   * token WebSocket or the CLI. No agent can press a button; an agent's own surfaces (MCP,
   * `agentteam agent …`) have no approval call at all. Only approvals concerning the chat's own
   * conversation can be answered from it: callback data is client-supplied and checked, not trusted.
   */
  onCallback(q: CallbackQuery): void {
    const lang = this.#o.language();
    const reply = (text: string) => this.#answerQuery(q.id, text);
    const binding = q.message === undefined ? undefined : this.#o.forChat(q.message.chat.id);
    if (binding === undefined || !binding.allowFrom.has(q.from.id)) {
      this.#o.counted?.(false, 'not_allowed');
      this.#o.log.info('telegram: approval press refused', { fromId: q.from.id, reason: 'not_allowed' });
      return reply(approvalCopy(lang, 'notAllowed'));
    }
    const button = parseApprovalButton(q.data);
    if (button === null) {
      this.#o.counted?.(false, 'not_approval');
      return reply(approvalCopy(lang, 'malformed'));
    }
    const record = this.#o.approvals.get(button.id);
    if (record === undefined) {
      this.#o.counted?.(false, 'unknown_approval');
      return reply(approvalCopy(lang, 'unknown'));
    }
    if (!this.#chatsOf(record).some((b) => b.chatId === binding.chatId)) {
      this.#o.counted?.(false, 'not_allowed');
      this.#o.log.info('telegram: approval press refused', { fromId: q.from.id, reason: 'other_conversation' });
      return reply(approvalCopy(lang, 'notAllowed'));
    }
    if (!approvalFitsChat(record.summary) || (button.scope !== 'once' && !approvalScopesFitChat(record))) {
      // No button was shown for it (callback data is client-supplied): what the chat could not show is answered in the app.
      this.#o.counted?.(false, 'not_shown');
      this.#o.log.info('telegram: approval press refused', { fromId: q.from.id, reason: 'not_shown' });
      return reply(approvalCopy(lang, 'tooLong'));
    }
    this.#o.counted?.(true, '');
    let result: ApprovalRecord;
    try {
      this.#answeredBy.set(record.id, userName(q.from));
      result = this.#o.approvals.answer(record.id, button.decision, button.scope);
    } catch (error) {
      this.#answeredBy.delete(record.id);
      if (error instanceof ApiError && error.code === 'approval_settled') {
        const now = this.#o.approvals.get(record.id) ?? record;
        this.#settledHere(q, now);
        return reply(now.status === 'pending' ? approvalCopy(lang, 'failed') : alreadySettled(lang, now.status));
      }
      this.#o.log.warn('telegram: approval answer failed', { id: record.id, error: String(error) });
      return reply(approvalCopy(lang, 'failed'));
    }
    this.#o.log.info('telegram: approval answered from the chat', { id: result.id, status: result.status });
    return reply(answered(lang, button.decision));
  }

  /** A press on a settled question (a late press, or one left from before a restart): its message shows the outcome. */
  #settledHere(q: CallbackQuery, r: ApprovalRecord): void {
    if (q.message === undefined || r.status === 'pending') return;
    const lang = this.#o.language();
    const text =
      this.#outcomes.get(r.id) ??
      approvalOutcome(lang, approvalQuestion(lang, this.#o.agentName(r.agentId), r), r, null);
    this.#edit(q.message.chat.id, q.message.message_id, text);
  }

  #answerQuery(id: string, text: string): void {
    const api = this.#o.api();
    if (api === null) return;
    // A replayed press (its query already answered, or too old) is refused by Telegram: nothing to do.
    void this.#retry('callback answer', false, () => api.answerCallbackQuery(id, { text }));
  }
}
