/**
 * issue 39: what a page of the shell is (views/view-registry.tsx lists them). Each page is a folder
 * of views/ exporting its entry: the sidebar link's words, place and badge, and the component the
 * shell shows.
 */
import type { ComponentType } from 'react';
import type { CopyKey, Language } from '../i18n/copy.js';

/**
 * The shell's navigation, as the pages use it: what to open, in the pages' words (the shell's own
 * `View` stays in view-registry.tsx, which lists the pages).
 */
export interface Navigation {
  /** Shows one agent's detail (issue 17). */
  openAgent(agentId: string): void;
  /** Shows a conversation that exists (e.g. a Team row's). */
  openConversation(target: string): void;
  /** Opens (or creates) the direct conversation with an agent. */
  message(agentId: string): void;
}

export interface PageProps {
  readonly language: Language;
  readonly navigation: Navigation;
}

export interface PageEntry {
  /** The page's name in a `View` (its folder's name). */
  readonly kind: string;
  /** The sidebar link's words (and the page's name for assistive technology). */
  readonly label: CopyKey;
  /** In the sidebar: a heading of the nav (before the agent rows), or at its foot. */
  readonly place: 'heading' | 'foot';
  /** The link's own class (styles). */
  readonly className?: string;
  /**
   * A count on the link, e.g. the agents that need the operator (issue 25); with its words for
   * assistive technology and the data attribute that carries it.
   */
  readonly badge?: { readonly useCount: () => number; readonly label: CopyKey; readonly attribute: `data-${string}` };
  readonly Page: ComponentType<PageProps>;
}
