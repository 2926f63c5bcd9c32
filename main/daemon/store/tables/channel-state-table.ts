/**
 * External channels' durable state (issue 18), keyed by channel (issue 39: channels are
 * plug-ins, channels/channel-plugin.ts): the provider stream cursor of each channel (Telegram's
 * getUpdates offset) and the bindings added in the Settings page.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** A chat of a channel bound to a conversation: the chat and its users in the channel's own ids. */
export interface StoredChannelBinding {
  readonly chatId: string;
  readonly target: string;
  readonly allowFrom: readonly (string | number)[];
  readonly createdAt: string;
}

export class ChannelStateTable {
  private readonly cursorGet: StatementSync;
  private readonly cursorSet: StatementSync;
  private readonly bindingsList: StatementSync;
  private readonly bindingAdd: StatementSync;
  private readonly bindingRemove: StatementSync;

  constructor(db: DatabaseSync) {
    this.cursorGet = db.prepare('SELECT position FROM channel_cursors WHERE channel = $channel');
    // Monotonic: a stale writer can never move a cursor back (that would replay updates).
    this.cursorSet =
      db.prepare(`INSERT INTO channel_cursors (channel, position, updated_at) VALUES ($channel, $position, $at)
      ON CONFLICT (channel) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at
      WHERE excluded.position > channel_cursors.position`);
    this.bindingsList = db.prepare(
      'SELECT * FROM channel_bindings WHERE channel = $channel ORDER BY created_at, rowid',
    );
    this.bindingAdd = db.prepare(
      `INSERT INTO channel_bindings (channel, chat_id, target, allow_from, created_at)
      VALUES ($channel, $chatId, $target, $allowFrom, $at)`,
    );
    this.bindingRemove = db.prepare('DELETE FROM channel_bindings WHERE channel = $channel AND chat_id = $chatId');
  }

  cursor(channel: string): number | null {
    const row = this.cursorGet.get({ channel });
    return row === undefined ? null : Number(row.position);
  }

  setCursor(channel: string, position: number, at: string): void {
    this.cursorSet.run({ channel, position, at });
  }

  bindings(channel: string): StoredChannelBinding[] {
    return this.bindingsList.all({ channel }).map((r) => ({
      chatId: String(r.chat_id),
      target: String(r.target),
      allowFrom: JSON.parse(String(r.allow_from)) as (string | number)[],
      createdAt: String(r.created_at),
    }));
  }

  addBinding(
    channel: string,
    b: { chatId: string; target: string; allowFrom: readonly (string | number)[] },
    at: string,
  ): void {
    this.bindingAdd.run({ channel, chatId: b.chatId, target: b.target, allowFrom: JSON.stringify(b.allowFrom), at });
  }

  removeBinding(channel: string, chatId: string): boolean {
    return Number(this.bindingRemove.run({ channel, chatId }).changes) > 0;
  }
}
