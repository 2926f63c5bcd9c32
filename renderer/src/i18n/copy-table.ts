/**
 * One namespace of UI copy (`chip.*`, `settings.*`, …) in every UI language. Each key starts with
 * its table's namespace and every language has exactly the English keys, both checked by the
 * compiler: a key outside the namespace, or missing or extra in a translation, fails typecheck.
 */
import type { Language } from './language.js';

export type CopyTable<N extends string = string, K extends string = string> = {
  readonly namespace: N;
} & { readonly [L in Language]: Readonly<Record<K, string>> };

/** A namespaced table; the English keys are the table's keys, `zh-CN` must match them. */
export function copyTable<N extends string, K extends `${N}.${string}`>(
  namespace: N,
  texts: { readonly en: Readonly<Record<K, string>>; readonly 'zh-CN': Readonly<Record<NoInfer<K>, string>> },
): CopyTable<N, K> {
  return { namespace, ...texts };
}
