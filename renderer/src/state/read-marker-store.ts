/**
 * Read markers (conversations/read-markers.ts, issue 17) kept current: what is on screen is read
 * — the conversation on view and the open thread — and a conversation listed for the first time
 * starts read up to where it is. Saved in this browser's storage on each change.
 */
import { useCallback } from 'react';
import type { Conversation } from '../../../shared/api/contract.js';
import {
  adoptConversations,
  loadReadMarkers,
  markRead,
  saveReadMarkers,
  unreadCount,
  type MarkerStorage,
  type ReadMarkers,
} from '../conversations/read-markers.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const KEY = 'markers';

export class ReadMarkerStore extends KeyedStore {
  private markers: ReadMarkers;
  private listed: readonly Conversation[] = [];
  private onScreen: readonly string[] = [];

  constructor(private readonly storage: MarkerStorage | undefined) {
    super();
    this.markers = loadReadMarkers(storage);
    saveReadMarkers(storage, this.markers);
  }

  get current(): ReadMarkers {
    return this.markers;
  }

  /** The conversations listed now (their lastSeq moved, or the list changed). */
  list(conversations: readonly Conversation[]): void {
    this.listed = conversations;
    this.update();
  }

  /** The conversations on screen now (the one on view, the open thread). */
  show(targets: readonly (string | null)[]): void {
    this.onScreen = targets.filter((t) => t !== null);
    this.update();
  }

  private update(): void {
    const next = this.listed
      .filter((c) => this.onScreen.includes(c.target))
      .reduce((acc, c) => markRead(acc, c.target, c.lastSeq), adoptConversations(this.markers, this.listed));
    if (next === this.markers) return;
    this.markers = next;
    saveReadMarkers(this.storage, next);
    this.notify(KEY);
  }
}

/** Unread messages of a conversation; a new function when a marker moves (the sidebar re-renders then). */
export function useUnread(store: ReadMarkerStore): (c: Conversation) => number {
  const markers = useStoreKey(store, KEY, () => store.current);
  return useCallback((c: Conversation) => unreadCount(markers, c), [markers]);
}
