/**
 * External channels' durable state (issue 18): the provider stream cursor of each channel
 * (Telegram's getUpdates offset) and the Telegram bindings added in the Settings page.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export interface StoredTelegramBinding {
  readonly chatId: number;
  readonly target: string;
  readonly allowFrom: readonly number[];
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
    this.bindingsList = db.prepare('SELECT * FROM telegram_bindings ORDER BY created_at, chat_id');
    this.bindingAdd = db.prepare(
      'INSERT INTO telegram_bindings (chat_id, target, allow_from, created_at) VALUES ($chatId, $target, $allowFrom, $at)',
    );
    this.bindingRemove = db.prepare('DELETE FROM telegram_bindings WHERE chat_id = $chatId');
  }

  cursor(channel: string): number | null {
    const row = this.cursorGet.get({ channel });
    return row === undefined ? null : Number(row.position);
  }

  setCursor(channel: string, position: number, at: string): void {
    this.cursorSet.run({ channel, position, at });
  }

  bindings(): StoredTelegramBinding[] {
    return this.bindingsList.all().map((r) => ({
      chatId: Number(r.chat_id),
      target: String(r.target),
      allowFrom: JSON.parse(String(r.allow_from)) as number[],
      createdAt: String(r.created_at),
    }));
  }

  addBinding(b: { chatId: number; target: string; allowFrom: readonly number[] }, at: string): void {
    this.bindingAdd.run({ chatId: b.chatId, target: b.target, allowFrom: JSON.stringify(b.allowFrom), at });
  }

  removeBinding(chatId: number): boolean {
    return Number(this.bindingRemove.run({ chatId }).changes) > 0;
  }
}
