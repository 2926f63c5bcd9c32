/**
 * The elapsed time shown after "🧠 Working…" (UI.md; watchdog spec A): whole seconds, compact,
 * zero parts left out (`45s`, `1m`, `1m 30s`, `1h 5m`). One definition for the daemon's beacon
 * text and the UI's status chip, so both say the same time the same way.
 */
import type { PromptLanguage } from './config.js';

const UNITS: Readonly<Record<PromptLanguage, { h: string; m: string; s: string; sep: string }>> = {
  en: { h: 'h', m: 'm', s: 's', sep: ' ' },
  'zh-CN': { h: '小时', m: '分', s: '秒', sep: '' },
};

export function formatElapsed(ms: number, language: PromptLanguage): string {
  const u = UNITS[language];
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h === 0 && m === 0) return `${s}${u.s}`;
  // The two largest units; the smaller one is left out when it is zero.
  const [big, small] =
    h > 0 ? [`${h}${u.h}`, m === 0 ? '' : `${m}${u.m}`] : [`${m}${u.m}`, s === 0 ? '' : `${s}${u.s}`];
  return small === '' ? big : `${big}${u.sep}${small}`;
}
