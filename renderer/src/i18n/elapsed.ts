/** Elapsed time for the "🧠 Working… {elapsed}" chip (UI.md): compact, whole seconds. */
import type { Language } from './copy.js';

export function formatElapsed(ms: number, language: Language): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (language === 'zh-CN') {
    if (h > 0) return `${h}小时${m}分`;
    if (m > 0) return `${m}分${s}秒`;
    return `${s}秒`;
  }
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}
