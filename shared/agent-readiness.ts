/**
 * Whether an agent can take work, and what a person does when it cannot (issue 15): the
 * readiness states, the sign-in modes, and the one-sentence fixes and plain-language failure
 * words in English and 简体中文 (UI.md "Chips and copy"). Shared, because the same sentence is
 * printed by `agentteam agents` and shown in the sidebar, the agent detail and a failed
 * wake's Details. Pure: no I/O.
 */
import type { FailureReason, SendRefusalCode } from './wake-status.js';

/** How the runtime is signed in (DESIGN.md "Agent config"): the person's CLI login, or keys in `env` only. */
export const AUTH_MODES = ['cli-login', 'env'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** The readiness an agent row shows (UI.md "agent not ready"). */
/** issue 42: `sleeping`: ready, its CLI process stopped while idle; the next message starts it again in the same session. */
export const READINESS_STATES = [
  'ready',
  'sleeping',
  'needs_sign_in',
  'cli_missing',
  /** issue 40: it cannot start for a cause of its own (`reason`: its workspace, its entry), not a crash. */
  'cannot_start',
  'starting',
  'restarting',
  'stopped',
  // issue 43: an agent on another host (agents[].host), each its own reason and fix.
  'host_unreachable',
  'host_auth_failed',
  'host_key_unknown',
] as const;
export type ReadinessState = (typeof READINESS_STATES)[number];

/** issue 40: the causes of `cannot_start`, each with its own fix (the wake failure reasons of the same name). */
export const CANNOT_START_REASONS = [
  'workspace_missing',
  'workspace_unreadable',
  'workspace_overlap',
  'config_invalid',
] as const satisfies readonly FailureReason[];
export type CannotStartReason = (typeof CANNOT_START_REASONS)[number];

/**
 * issue 40 item 5: the failure reasons whose words end "then Retry" (a sign-in, an install, a
 * workspace or entry fixed): the failed chip offers that Retry.
 */
export function promisesRetry(reason: string | null | undefined): boolean {
  return reason === 'auth_required' || reason === 'cli_missing' || isCannotStartReason(reason);
}

export function isCannotStartReason(value: unknown): value is CannotStartReason {
  return typeof value === 'string' && (CANNOT_START_REASONS as readonly string[]).includes(value);
}
export type CopyLanguage = 'en' | 'zh-CN';

/**
 * issue 39 "Plug-ins": how a person signs a runtime's CLI in, or keys it, and what it is called —
 * phrases as a sentence quotes them. Each runtime's descriptor says its own
 * (main/daemon/runtime/registry.ts `runtimeWordsOf`); the agent view carries them to the page and
 * the CLI, so a new runtime needs no words here. The sentences around them are here, for both.
 */
export interface RuntimeWords {
  readonly label: string;
  /** The command a person installs ('' for the demo). */
  readonly cli: string;
  /** What to run in a terminal to sign in. */
  readonly login: string;
  /** The provider key an `env`-mode agent needs. */
  readonly key: string;
  /** The same in 简体中文, where a phrase is words rather than a command or a name. */
  readonly zh?: Partial<Omit<RuntimeWords, 'zh'>>;
}

/** A runtime the reader does not know (a wake of an agent no longer configured): neutral words. */
export const UNKNOWN_RUNTIME_WORDS: RuntimeWords = {
  label: 'Runtime',
  cli: "the agent's CLI",
  login: "the CLI's own sign-in",
  key: 'the provider key the agent reads',
  zh: {
    label: '运行时',
    cli: '此智能体的命令行工具',
    login: '该命令行工具自己的登录方式',
    key: '此智能体读取的服务密钥',
  },
};

/** The words in `language`. */
function wordsIn(words: RuntimeWords, language: CopyLanguage): Omit<RuntimeWords, 'zh'> {
  return language === 'zh-CN' ? { ...words, ...words.zh } : words;
}

/** The runtime's name as people know it ("Gemini CLI" for the gemini ACP preset), in `language`. */
export function runtimeLabel(words: RuntimeWords, language: CopyLanguage = 'en'): string {
  return wordsIn(words, language).label;
}

export interface FixInput {
  /** The agent's runtime words (its descriptor's, from the agent view). */
  readonly words: RuntimeWords;
  readonly auth: AuthMode;
  readonly restart?: { readonly attempt: number; readonly cap: number } | null;
  /** issue 43: the agent's host as `user@host` (with `-p PORT` when not 22), for the host fixes; absent: "its host". */
  readonly host?: { readonly login: string; readonly hostname: string; readonly port: number } | null;
  /** issue 40: `cannot_start`'s cause (its fix differs per cause). */
  readonly reason?: string | null;
}

/** The readiness label ("Needs sign-in", "Restarting (2 of 5)", …). */
export function readinessLabel(state: ReadinessState, language: CopyLanguage, input?: FixInput): string {
  const r = input?.restart;
  const zh = language === 'zh-CN';
  switch (state) {
    case 'ready':
      return zh ? '就绪' : 'Ready';
    case 'sleeping':
      return zh ? '休眠中' : 'Sleeping';
    case 'needs_sign_in':
      return zh ? '需要登录' : 'Needs sign-in';
    case 'cli_missing':
      return zh ? '未找到命令行工具' : 'CLI not found';
    case 'cannot_start':
      return zh ? '无法启动' : "Can't start";
    case 'starting':
      return zh ? '正在启动' : 'Starting';
    case 'restarting':
      return r
        ? zh
          ? `正在重启（${r.attempt}/${r.cap}）`
          : `Restarting (${r.attempt} of ${r.cap})`
        : zh
          ? '正在重启'
          : 'Restarting';
    case 'stopped':
      return zh ? '已停止' : 'Stopped';
    case 'host_unreachable':
      return zh ? '主机无法连接' : 'Host unreachable';
    case 'host_auth_failed':
      return zh ? 'SSH 登录失败' : 'SSH sign-in failed';
    case 'host_key_unknown':
      return zh ? '主机密钥未知' : 'Host key unknown';
  }
}

/** The exact fix, in one sentence; null when nothing is to be done. */
export function readinessFix(state: ReadinessState, language: CopyLanguage, input: FixInput): string | null {
  const zh = language === 'zh-CN';
  const facts = wordsIn(input.words, language);
  const { auth } = input;
  switch (state) {
    case 'needs_sign_in':
      if (auth === 'env')
        return zh ? `请在此智能体的 env 中设置 ${facts.key}。` : `Set ${facts.key} in this agent's env.`;
      return zh ? `请在终端运行 ${facts.login}，然后点重试。` : `Run ${facts.login} in a terminal, then Retry.`;
    case 'cli_missing':
      return zh
        ? `请安装 ${facts.cli}，或在 agentteam.json 中设置此智能体的 "command"，然后点重试。`
        : `Install ${facts.cli} or set this agent's "command" in agentteam.json, then Retry.`;
    case 'cannot_start':
      return cannotStartFix(isCannotStartReason(input.reason) ? input.reason : 'config_invalid', zh);
    case 'stopped':
      return zh
        ? '请查看最近一次唤醒的详情，修复原因后点重试。'
        : 'Check the Details of the latest wake, fix the cause, then Retry.';
    case 'host_unreachable':
    case 'host_auth_failed':
    case 'host_key_unknown':
      return hostFix(state, zh, input.host ?? null);
    default:
      return null;
  }
}

/** issue 43: the fix of a host state, naming the command to run in a terminal (never accepting a key silently). */
function hostFix(
  state: 'host_unreachable' | 'host_auth_failed' | 'host_key_unknown',
  zh: boolean,
  host: NonNullable<FixInput['host']> | null,
): string {
  const port = host === null || host.port === 22 ? '' : ` -p ${host.port}`;
  const ssh = host === null ? '`ssh user@host`' : `\`ssh${port} ${host.login}\``;
  const keyscan = host === null ? '`ssh-keyscan host`' : `\`ssh-keyscan${port} ${host.hostname}\``;
  switch (state) {
    case 'host_key_unknown':
      return zh
        ? `此主机的密钥不在你的 known_hosts 中（或已改变），连接被拒绝。请核实密钥，然后在终端运行一次 ${ssh}（或核实后用 ${keyscan} 加入 ~/.ssh/known_hosts），再点重试。`
        : `The host's key is not in your known_hosts (or it changed), so the connection was refused. Check the key, then run ${ssh} once in a terminal (or add it with ${keyscan} to ~/.ssh/known_hosts after verifying it), then Retry.`;
    case 'host_auth_failed':
      return zh
        ? `主机拒绝了 SSH 登录。请让 ${ssh} 无需输入即可连接（ssh-agent 中的密钥或 ~/.ssh/config），然后点重试。`
        : `The host refused the SSH sign-in. Make ${ssh} connect without a prompt (a key in your ssh-agent or ~/.ssh/config), then Retry.`;
    case 'host_unreachable':
      return zh
        ? `主机没有响应 SSH。请确认主机已开机且 ${ssh} 能连接，然后点重试。`
        : `The host did not answer over SSH. Check that it is up and ${ssh} connects, then Retry.`;
  }
}

/** issue 40: what to do about each cause an agent cannot start for, in one sentence. */
function cannotStartFix(reason: CannotStartReason, zh: boolean): string {
  switch (reason) {
    case 'workspace_missing':
      return zh
        ? '请创建此智能体的工作区文件夹，或在智能体页面的"工作区"中另选一个文件夹，然后点重试。'
        : "Create this agent's workspace folder, or choose another folder under Workspace on the agent's page, then Retry.";
    case 'workspace_unreadable':
      return zh
        ? '请让你的用户可以读取此智能体的工作区文件夹，或在智能体页面的"工作区"中另选一个文件夹，然后点重试。'
        : "Give your user access to this agent's workspace folder, or choose another folder under Workspace on the agent's page, then Retry.";
    case 'workspace_overlap':
      return zh
        ? '请在智能体页面的"工作区"中选择一个不包含、也不位于 AgentTeam 数据文件夹内的项目文件夹，然后点重试。'
        : "Under Workspace on the agent's page, choose a project folder that neither contains nor lies inside AgentTeam's data folder, then Retry.";
    case 'config_invalid':
      return zh
        ? '请按详情所述修正 agentteam.json 中此智能体的条目，然后点重试。'
        : "Correct this agent's entry in agentteam.json as the detail says, then Retry.";
  }
}

/** issue 40: why an agent cannot start, in plain words (it never started: not a crash). */
function cannotStartWords(reason: CannotStartReason, zh: boolean): string {
  switch (reason) {
    case 'workspace_missing':
      return zh
        ? '此智能体无法启动：它的工作区文件夹不存在。'
        : "This agent can't start: its workspace folder does not exist.";
    case 'workspace_unreadable':
      return zh
        ? '此智能体无法启动：它的工作区文件夹无法读取。'
        : "This agent can't start: its workspace folder cannot be read.";
    case 'workspace_overlap':
      return zh
        ? '此智能体无法启动：它的工作区与 AgentTeam 的数据文件夹重叠（在那里工作的智能体可以更改自己的权限）。'
        : "This agent can't start: its workspace overlaps AgentTeam's data folder (an agent working there could change its own permissions).";
    case 'config_invalid':
      return zh
        ? '此智能体无法启动：agentteam.json 中它的条目无法按所写的运行。'
        : "This agent can't start: its entry in agentteam.json cannot run as written.";
  }
}

export interface FailureWordsInput {
  /** The runtime words of the wake's agent (UNKNOWN_RUNTIME_WORDS when it is no longer configured). */
  readonly words: RuntimeWords;
  readonly auth?: AuthMode;
  /** `provider_error`: the HTTP status, when known. */
  readonly httpStatus?: number | null;
  /**
   * issue 24 (contract §6.6): a recovery continuation re-delivered the wake's work in a new wake
   * (the wake's `recoveries` > 0): the words say so instead of asking to send it again.
   */
  readonly continued?: boolean;
}

/** A failed wake's reason in plain words, with the fix (UI.md "Failure Details"). Never a bare internal token. */
export function failureWords(reason: FailureReason, language: CopyLanguage, input: FailureWordsInput): string {
  const zh = language === 'zh-CN';
  const name = runtimeLabel(input.words, language);
  const fixInput: FixInput = { words: input.words, auth: input.auth ?? 'cli-login' };
  switch (reason) {
    case 'auth_required':
      return zh
        ? `${name} 尚未登录。${readinessFix('needs_sign_in', language, fixInput) ?? ''}`
        : `${name} isn't signed in. ${readinessFix('needs_sign_in', language, fixInput) ?? ''}`;
    case 'provider_error': {
      const status = input.httpStatus ?? null;
      return zh
        ? `模型服务返回了错误${status === null ? '' : `（HTTP ${status}）`}。请稍后重试；如果持续出现，请检查此智能体的模型与服务设置。`
        : `The model provider returned an error${status === null ? '' : ` (HTTP ${status})`}. Try again later; if it keeps happening, check this agent's model and provider settings.`;
    }
    case 'provider_rate_limited':
      return zh
        ? '模型服务限制了请求频率或用量。请稍后重试，或检查你的套餐额度。'
        : 'The model provider is rate-limiting this account. Try again later, or check your plan’s usage limits.';
    case 'cli_missing':
      return zh
        ? `未找到 ${name} 命令行工具。${readinessFix('cli_missing', language, fixInput) ?? ''}`
        : `The ${name} CLI was not found. ${readinessFix('cli_missing', language, fixInput) ?? ''}`;
    case 'cli_exited':
      if (input.continued === true)
        return zh
          ? `${name} 工作时进程意外退出——已在新的唤醒中继续。如果反复出现，请查看下面的原始信息。`
          : `${name} exited unexpectedly while it worked — continued in a new wake. If this repeats, see the raw detail below.`;
      return zh
        ? `${name} 进程意外退出。它会自动重启；如果反复出现，请查看下面的原始信息。`
        : `The ${name} process exited unexpectedly. It restarts on its own; if this repeats, see the raw detail below.`;
    case 'context_overflow':
      return zh
        ? '对话已超出模型的上下文长度。请开启新的会话，或缩短消息。'
        : "The conversation no longer fits the model's context window. Start a new conversation or send a shorter message.";
    case 'daemon_restarted':
      if (input.continued === true)
        return zh
          ? `AgentTeam 在 ${name} 工作时重新启动——已在新的唤醒中继续。`
          : `AgentTeam restarted while ${name} worked — continued in a new wake.`;
      return zh
        ? 'AgentTeam 在处理过程中重新启动。如有需要，请再次发送消息。'
        : 'AgentTeam restarted while this was being handled. Send the message again if it is still needed.';
    case 'process_replaced':
      if (input.continued === true)
        return zh
          ? `${name} 工作时因设置更改而重新启动——已在新的唤醒中继续。`
          : `${name} restarted with its new settings while it worked — continued in a new wake.`;
      return zh
        ? `${name} 在处理过程中因设置更改而重新启动。如有需要，请再次发送消息。`
        : `${name} restarted with its new settings while this was being handled. Send the message again if it is still needed.`;
    case 'approval_expired':
      return zh
        ? '等待批准超时，操作未执行。如仍需要，请再次发送消息。'
        : 'An approval request timed out, so the action did not run. Send the message again if it is still needed.';
    case 'turn_timeout':
      return zh
        ? '这一轮运行超过了此智能体的轮次时限（turnTimeoutMinutes），AgentTeam 已中断它。如仍需要，请再次发送消息。'
        : "This turn ran longer than the agent's turn limit (turnTimeoutMinutes), so AgentTeam interrupted it. Send the message again if it is still needed.";
    case 'stopped_by_operator':
      return zh
        ? '你停止了这一轮。智能体会接收下一条消息。'
        : 'You stopped this turn. The agent takes the next message.';
    case 'budget_reached':
      return zh
        ? '这一轮工作中，此智能体已用完今天的预算（agentteam.json 中的 budget），AgentTeam 已中断它。提高预算后，请再次发送消息；之后的消息会等待到预算提高或明天。'
        : "This agent's daily budget (budget in agentteam.json) was reached during this turn, so AgentTeam interrupted it. Raise budget, then send the message again; later messages wait until the budget is raised or the day ends.";
    case 'host_unreachable':
      return zh
        ? `与 ${name} 所在主机的 SSH 连接中断，这一轮未能完成。主机恢复连接后智能体会重新启动；如仍需要，请再次发送消息。`
        : `The SSH connection to the host ${name} runs on dropped, so this turn could not finish. The agent starts again once the host answers; send the message again if it is still needed.`;
    case 'workspace_missing':
    case 'workspace_unreadable':
    case 'workspace_overlap':
    case 'config_invalid':
      return `${cannotStartWords(reason, zh)}${zh ? '' : ' '}${cannotStartFix(reason, zh)}`;
    case 'runtime_error':
      return zh
        ? `${name} 报告了一个错误。请查看下面的原始信息。`
        : `${name} reported an error. See the raw detail below.`;
  }
}

/** A refused `message_send`, in plain words (issue 15: our own refusals are visible). */
export function refusalWords(code: SendRefusalCode, language: CopyLanguage): string {
  const zh = language === 'zh-CN';
  switch (code) {
    case 'rate_limited':
      return zh
        ? '此智能体的发送被 AgentTeam 的频率限制拒绝（每分钟消息数已达上限）。'
        : "AgentTeam refused this agent's message: its per-minute message limit was reached.";
    case 'out_of_scope':
      return zh
        ? '此智能体的发送被 AgentTeam 拒绝：目标不是它正在处理的会话。'
        : "AgentTeam refused this agent's message: it was addressed to a conversation it was not handling.";
    case 'content_too_large':
      return zh
        ? '此智能体的发送被 AgentTeam 拒绝：消息超过了大小上限。'
        : "AgentTeam refused this agent's message: it was larger than the size limit.";
  }
}

/** The HTTP status a `provider_error` detail carries (`HTTP 502`, `status 502`, `api_error_status 502`). */
export function httpStatusOf(detail: string | null): number | null {
  if (detail === null) return null;
  const m = /(?:HTTP|status(?:Code)?|api_error_status)[\s:=]*([1-5]\d\d)\b/i.exec(detail);
  return m ? Number(m[1]) : null;
}

/** The refusal a wake's detail names (`message_send refused: rate_limited …`), if any. */
export function refusalOf(detail: string | null): SendRefusalCode | null {
  const m = /message_send refused: (rate_limited|out_of_scope|content_too_large)/.exec(detail ?? '');
  return m ? (m[1] as SendRefusalCode) : null;
}
