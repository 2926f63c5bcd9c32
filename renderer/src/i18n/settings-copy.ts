/**
 * Copy of the Settings page in English and Simplified Chinese (UI.md), kept beside the main table
 * so the page's wording changes in one place. Same `{name}` placeholders as `copy()`.
 *
 * "Delivery channel" is deliberate: "channel" alone is what the sidebar calls a conversation
 * (#general); here it is where replies are delivered (local app, Telegram…).
 */
import type { Language } from './copy.js';

const en = {
  'settings.title': 'Settings',
  'settings.unsaved': 'Unsaved changes',
  'settings.changed': 'changed',
  'settings.save': 'Save',
  'settings.discard': 'Discard changes',
  'settings.saving': 'Saving…',
  'settings.savedToFile': 'Saved to agentteam.json',
  'settings.saved': 'Saved',
  'settings.notSaved': 'Not saved: {message}',
  'settings.fixFields': 'Not saved: fix the highlighted fields first.',
  'settings.general': 'General',
  'settings.language': 'Language',
  'settings.language.hint': 'A preference of this app only (not in agentteam.json).',
  'settings.source.title': 'Where settings come from',
  'settings.source.body':
    'Delivery settings live in agentteam.json, the file you can edit by hand; Save writes only the values you changed into it. Edits of the file show up here while AgentTeam runs.',
  'settings.source.file': 'Config file',
  'settings.origin.file': 'agentteam.json',
  'settings.origin.default': 'default',
  'settings.origin.label': 'Value from: {origin}',
  'settings.configError.title': 'agentteam.json has an error — the last valid settings stay in effect',
  'settings.configError.body':
    'Fix the file; this page updates when it loads again. Until then, Save cannot write to it.',
  'settings.restart': 'Changes to {sections} in agentteam.json apply after AgentTeam restarts.',
  'settings.restart.agents': 'agents',
  'settings.restart.limits': 'limits',
  'settings.legacy.title': 'Settings from an older version were moved',
  'settings.legacy.body':
    'Delivery settings used to be kept by the app and silently overrode agentteam.json. agentteam.json is now their one source. A copy of the old values is kept in settings.legacy-channels.json.',
  'settings.legacy.migrated': '{path} = {value}: moved into agentteam.json',
  'settings.legacy.ignored': '{path} = {value}: not used, agentteam.json sets {fileValue}',
  'settings.legacy.ignoredChannel': '{path}: not used (no such delivery channel)',
  'settings.legacy.dismiss': 'Dismiss',
  'settings.channel': 'Delivery channel',
  'settings.channel.hint': 'Where agents’ replies and status beacons are delivered. Not a conversation.',
  'settings.channel.local': 'Local (this app)',
  'settings.watchdog': 'Silence watchdog',
  'settings.watchdog.enabled': 'Send a status beacon when an agent is silent during a turn',
  'settings.watchdog.thresholdSeconds': 'Silence before a beacon (seconds)',
  'settings.watchdog.maxBeacons': 'Beacons per turn before one escalation',
  'settings.delivery': 'Reply delivery confirmation',
  'settings.delivery.enabled': 'Track delivery of every reply',
  'settings.delivery.retryCount': 'Retries when a reply provably never left',
  'settings.delivery.retryDelayMs': 'Delay before a retry (ms)',
  'settings.delivery.alertOnFailure': 'Alert when a reply is not delivered',
  'settings.delivery.alertOnNoResponse': 'Show a status when a turn ends without a reply',
  'settings.delivery.preserveUndelivered': 'Keep undelivered replies for re-delivery',
  'settings.invalid.number': 'Enter a number.',
  'settings.invalid.integer': 'Enter a whole number.',
  'settings.invalid.range': 'Enter a value from {min} to {max}.',
  'settings.invalid.positive': 'Enter a number above 0, at most {max}.',
} as const;

export type SettingsCopyKey = keyof typeof en;

const zhCN: Record<SettingsCopyKey, string> = {
  'settings.title': '设置',
  'settings.unsaved': '有未保存的更改',
  'settings.changed': '已更改',
  'settings.save': '保存',
  'settings.discard': '放弃更改',
  'settings.saving': '正在保存…',
  'settings.savedToFile': '已保存到 agentteam.json',
  'settings.saved': '已保存',
  'settings.notSaved': '未保存：{message}',
  'settings.fixFields': '未保存：请先修正标出的字段。',
  'settings.general': '通用',
  'settings.language': '语言',
  'settings.language.hint': '仅为本应用的偏好设置（不写入 agentteam.json）。',
  'settings.source.title': '设置的来源',
  'settings.source.body':
    '投递设置保存在 agentteam.json 中，你也可以手动编辑该文件；“保存”只会把你更改的值写入其中。AgentTeam 运行时，对该文件的编辑会显示在此页。',
  'settings.source.file': '配置文件',
  'settings.origin.file': 'agentteam.json',
  'settings.origin.default': '默认值',
  'settings.origin.label': '取值来源：{origin}',
  'settings.configError.title': 'agentteam.json 有错误——仍使用上一次有效的设置',
  'settings.configError.body': '请修正该文件；文件重新加载后此页会更新。在此之前无法保存到该文件。',
  'settings.restart': 'agentteam.json 中对{sections}的更改将在 AgentTeam 重启后生效。',
  'settings.restart.agents': '智能体',
  'settings.restart.limits': '限制',
  'settings.legacy.title': '旧版本的设置已迁移',
  'settings.legacy.body':
    '投递设置以前由应用保存，并会在不提示的情况下覆盖 agentteam.json。现在 agentteam.json 是它们唯一的来源。旧值的副本保存在 settings.legacy-channels.json 中。',
  'settings.legacy.migrated': '{path} = {value}：已移入 agentteam.json',
  'settings.legacy.ignored': '{path} = {value}：未使用，agentteam.json 中的值为 {fileValue}',
  'settings.legacy.ignoredChannel': '{path}：未使用（没有此投递渠道）',
  'settings.legacy.dismiss': '关闭',
  'settings.channel': '投递渠道',
  'settings.channel.hint': '智能体的回复和状态信标投递到的地方，不是会话。',
  'settings.channel.local': '本地（本应用）',
  'settings.watchdog': '静默看门狗',
  'settings.watchdog.enabled': '智能体在处理中长时间无输出时发送状态信标',
  'settings.watchdog.thresholdSeconds': '静默多久后发送信标（秒）',
  'settings.watchdog.maxBeacons': '每轮信标上限（之后发送一次升级提示）',
  'settings.delivery': '回复投递确认',
  'settings.delivery.enabled': '跟踪每条回复的投递',
  'settings.delivery.retryCount': '确定未发出时的重试次数',
  'settings.delivery.retryDelayMs': '重试前等待（毫秒）',
  'settings.delivery.alertOnFailure': '回复未送达时提醒',
  'settings.delivery.alertOnNoResponse': '一轮结束且无回复时显示状态',
  'settings.delivery.preserveUndelivered': '保留未送达的回复以便重新投递',
  'settings.invalid.number': '请输入数字。',
  'settings.invalid.integer': '请输入整数。',
  'settings.invalid.range': '请输入 {min} 到 {max} 之间的值。',
  'settings.invalid.positive': '请输入大于 0、不超过 {max} 的数字。',
};

const TABLES: Record<Language, Record<SettingsCopyKey, string>> = { en, 'zh-CN': zhCN };

/** The Settings page's copy for `key` in `language`, with `{name}` placeholders filled from `vars`. */
export function settingsCopy(
  language: Language,
  key: SettingsCopyKey,
  vars: Record<string, string | number> = {},
): string {
  return TABLES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** Every key (a test checks both languages cover all of them). */
export const SETTINGS_COPY_KEYS = Object.keys(en) as SettingsCopyKey[];
