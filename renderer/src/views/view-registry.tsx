/**
 * issue 39: the pages of the shell, in the sidebar's order. The sidebar lists each as a link (with
 * its badge), the shell shows the one on view: a new page is one folder of views/ exporting its
 * entry (views/page.ts `PageEntry`) and one line in `PAGES`. A conversation and one agent's detail
 * are not pages: the sidebar lists those themselves (conversations.tsx grouping, the agent rows)
 * and the shell opens them with their target.
 *
 * Each page reads the stores it shows itself (useAppState): only the page on view subscribes, so a
 * busy/idle flip re-renders that page, not the shell (issue 30).
 */
import { useMemo } from 'react';
import { AGENTS_PAGE } from './agents/agents-list-page.js';
import type { PageEntry } from './page.js';
import { SETTINGS_PAGE } from './settings/settings-page.js';
import { TEAM_PAGE } from './team/team-page.js';
import { USAGE_PAGE } from './usage/usage-page.js';

export type { Navigation } from './page.js';

/** What the shell shows: a conversation, one agent's detail (issue 17), or one of the pages. */
export type View =
  | { readonly kind: 'conversation'; readonly target: string }
  | { readonly kind: 'agent'; readonly agentId: string }
  | { readonly kind: PageKind };

/** The pages, one line each, in the sidebar's order. */
export const PAGES = [TEAM_PAGE, USAGE_PAGE, AGENTS_PAGE, SETTINGS_PAGE] as const satisfies readonly PageEntry[];

export type PageKind = (typeof PAGES)[number]['kind'];

/** The page a view shows, or null for a conversation or an agent's detail. */
export function pageOf(view: View): PageEntry | null {
  return PAGES.find((p) => p.kind === view.kind) ?? null;
}

/** Each page's badge count (0 without one), for the sidebar; the same object while no count changes. */
export function usePageBadges(): Readonly<Partial<Record<PageKind, number>>> {
  // `PAGES` never changes, so these hooks run in the same order on every render.
  const counts = PAGES.map((p) => ('badge' in p ? p.badge.useCount() : 0));
  const key = counts.join(',');
  return useMemo(() => Object.fromEntries(PAGES.map((p, i) => [p.kind, counts[i]])), [key]);
}
