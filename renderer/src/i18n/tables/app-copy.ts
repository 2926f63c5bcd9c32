/**
 * The app shell: its title, the connection to the daemon and a generic error.
 */
import { copyTable } from '../copy-table.js';

export const APP_COPY = [
  copyTable('app', {
    en: {
      'app.title': 'AgentTeam',
    },
    'zh-CN': {
      'app.title': 'AgentTeam',
    },
  }),
  copyTable('connection', {
    en: {
      'connection.connecting': 'Connecting to the daemon…',
      'connection.lost': 'Connection to the daemon lost — reconnecting…',
      'connection.noToken':
        'Open the URL printed by "agentteam serve" or "agentteam url" (it carries the access token and the operator key).',
      // issue 40 item 1: shown where an operator action was refused, and once at the top.
      'connection.notOperator':
        'This tab has no operator key of the running AgentTeam (it restarted): open the URL "agentteam url" prints, or paste it into this tab.',
    },
    'zh-CN': {
      'connection.connecting': '正在连接守护进程…',
      'connection.lost': '与守护进程的连接已断开，正在重连…',
      'connection.noToken': '请打开 "agentteam serve" 或 "agentteam url" 打印的网址（其中包含访问令牌和操作者密钥）。',
      'connection.notOperator':
        '此标签页没有当前 AgentTeam 的操作者密钥（它已重启）：请打开 "agentteam url" 打印的网址，或将其粘贴到此标签页。',
    },
  }),
  copyTable('error', {
    en: {
      'error.generic': 'Something went wrong: {message}',
    },
    'zh-CN': {
      'error.generic': '出现问题：{message}',
    },
  }),
] as const;
