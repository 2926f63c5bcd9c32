/**
 * Search across conversations (issue 17).
 */
import { copyTable } from '../copy-table.js';

export const SEARCH_COPY = [
  copyTable('search', {
    en: {
      'search.label': 'Search messages',
      'search.placeholder': 'Search',
      'search.shortcut': 'Search messages (Ctrl+F or /)',
      'search.close': 'Close search',
      'search.results': 'Search results',
      'search.searching': 'Searching…',
      'search.count': '{count} results',
      'search.one': '1 result',
      'search.none': 'No messages match "{query}".',
      'search.more': 'More results',
      'search.failed': 'Search did not work: {message}',
      'search.by': '{author} in {conversation}',
    },
    'zh-CN': {
      'search.label': '搜索消息',
      'search.placeholder': '搜索',
      'search.shortcut': '搜索消息（Ctrl+F 或 /）',
      'search.close': '关闭搜索',
      'search.results': '搜索结果',
      'search.searching': '正在搜索…',
      'search.count': '{count} 条结果',
      'search.one': '1 条结果',
      'search.none': '没有与“{query}”匹配的消息。',
      'search.more': '更多结果',
      'search.failed': '搜索未能完成：{message}',
      'search.by': '{author} · {conversation}',
    },
  }),
] as const;
