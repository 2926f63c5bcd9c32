import type { DatabaseSync } from 'node:sqlite';
import type { DaemonLog } from '../daemon-log.js';
import { StoreError } from './store-errors.js';

/**
 * Versioned schema of the durable store. `PRAGMA user_version` holds the number of migrations
 * applied; each migration runs once, inside the same transaction that bumps the version, so a
 * crash mid-migration leaves the previous version intact. Append new migrations; never edit one
 * that has shipped.
 */
interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE members (
        id         TEXT PRIMARY KEY,
        kind       TEXT NOT NULL CHECK (kind IN ('operator', 'agent')),
        name       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      -- DESIGN.md "Targets": the canonical TargetKey is the primary key, so a thread
      -- (#channel:shortid) is its own row and never collapses to its parent.
      CREATE TABLE conversations (
        target     TEXT PRIMARY KEY,
        kind       TEXT NOT NULL CHECK (kind IN ('channel', 'dm', 'thread')),
        parent     TEXT REFERENCES conversations (target),
        created_at TEXT NOT NULL,
        CHECK ((kind = 'thread') = (parent IS NOT NULL))
      ) STRICT;

      -- TargetSeq = max(seq) + 1 of the target, read and written inside one IMMEDIATE transaction
      -- (and UNIQUE (target, seq) as a backstop): per target, monotonic and gap-free. Computing it
      -- from the (target, seq) index instead of a counter row keeps an append to three B-tree pages.
      CREATE TABLE messages (
        rowid_      INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        target      TEXT NOT NULL REFERENCES conversations (target),
        seq         INTEGER NOT NULL CHECK (seq >= 1),
        author_id   TEXT NOT NULL,
        author_kind TEXT NOT NULL CHECK (author_kind IN ('operator', 'agent')),
        content     TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        response_id TEXT,
        chunk_index INTEGER,
        redelivered INTEGER NOT NULL DEFAULT 0,
        UNIQUE (target, seq),
        CHECK ((response_id IS NULL) = (chunk_index IS NULL))
      ) STRICT;
      -- Watchdog spec B: retries carry the same response_id. A message with a response_id gets a
      -- deterministic id derived from (author, response_id, chunk_index), so UNIQUE (id) already
      -- stores one chunk of one response of one author once, without a second index.

      CREATE TABLE wakes (
        ord            INTEGER PRIMARY KEY,
        token          TEXT NOT NULL UNIQUE,
        message_id     TEXT NOT NULL,
        agent_id       TEXT NOT NULL,
        runtime        TEXT NOT NULL,
        target         TEXT NOT NULL,
        target_seq     INTEGER NOT NULL,
        delivery_class TEXT NOT NULL CHECK (delivery_class IN ('visible_reply', 'signal_only')),
        status         TEXT NOT NULL,
        reason         TEXT,
        detail         TEXT,
        beacons        INTEGER NOT NULL DEFAULT 0,
        escalated      INTEGER NOT NULL DEFAULT 0,
        last_beacon_at TEXT,
        final_check    INTEGER NOT NULL DEFAULT 0,
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL,
        ended_at       TEXT
      ) STRICT;
      CREATE INDEX wakes_active ON wakes (status, ord) WHERE ended_at IS NULL;
      CREATE INDEX wakes_target ON wakes (target, ord);
      CREATE INDEX wakes_agent ON wakes (agent_id, ord);

      -- Append-only: rows are never updated or deleted.
      CREATE TABLE wake_events (
        id         INTEGER PRIMARY KEY,
        wake_token TEXT NOT NULL REFERENCES wakes (token),
        kind       TEXT NOT NULL CHECK (kind IN ('status', 'beacon', 'escalation', 'final_check', 'delivery', 'alert')),
        status     TEXT,
        reason     TEXT,
        detail     TEXT,
        at         TEXT NOT NULL
      ) STRICT;
      CREATE INDEX wake_events_token ON wake_events (wake_token, id);
      CREATE TRIGGER wake_events_append_only_update BEFORE UPDATE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;
      CREATE TRIGGER wake_events_append_only_delete BEFORE DELETE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;

      -- contract §8.4: the prompt_input trajectory.
      CREATE TABLE prompt_inputs (
        seq         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        agent_id    TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('turn_context', 'delivery', 'final_check', 'recovery')),
        wake_tokens TEXT NOT NULL,
        text        TEXT NOT NULL,
        at          TEXT NOT NULL
      ) STRICT;
      CREATE TABLE prompt_input_wakes (
        wake_token       TEXT NOT NULL,
        prompt_input_seq INTEGER NOT NULL REFERENCES prompt_inputs (seq),
        PRIMARY KEY (wake_token, prompt_input_seq)
      ) STRICT, WITHOUT ROWID;

      -- Watchdog spec B (preserveUndelivered): kept for re-delivery on the next inbound.
      CREATE TABLE undelivered (
        id          INTEGER PRIMARY KEY,
        agent_id    TEXT NOT NULL,
        target      TEXT NOT NULL,
        turn_id     TEXT NOT NULL,
        response_id TEXT NOT NULL,
        chunk_index INTEGER NOT NULL,
        content     TEXT NOT NULL,
        reason      TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        taken_at    TEXT,
        UNIQUE (agent_id, response_id, chunk_index)
      ) STRICT;
      CREATE INDEX undelivered_open ON undelivered (target, id) WHERE taken_at IS NULL;

      -- contract §6.6: context-recovery markers, one per canonical target per batch.
      CREATE TABLE recovery_markers (
        ord          INTEGER PRIMARY KEY,
        id           TEXT NOT NULL UNIQUE,
        agent_id     TEXT NOT NULL,
        batch_id     TEXT NOT NULL,
        target       TEXT NOT NULL,
        frontier_seq INTEGER NOT NULL,
        wake_tokens  TEXT NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('pending', 'replay_pending', 'settled', 'superseded')),
        created_at   TEXT NOT NULL,
        launched_at  TEXT,
        settled_at   TEXT
      ) STRICT;
      CREATE INDEX recovery_markers_agent ON recovery_markers (agent_id, state, ord);

      -- contract §8.3: cross-scope proactive sends are declared and audited.
      CREATE TABLE audit (
        id         INTEGER PRIMARY KEY,
        agent_id   TEXT NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('cross_target_send')),
        target     TEXT NOT NULL,
        message_id TEXT NOT NULL,
        detail     TEXT,
        at         TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    name: 'reactions',
    sql: `
      -- contract §5, §9.2: a confirmed reaction to the triggering message is a visible reply, so
      -- it is stored and shown. One row per (message, author, emoji): reacting twice is a no-op.
      CREATE TABLE reactions (
        message_id TEXT NOT NULL REFERENCES messages (id),
        author_id  TEXT NOT NULL,
        emoji      TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (message_id, author_id, emoji)
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'approvals',
    sql: `
      -- issue 14: what a runtime CLI would ask a person, asked of the operator. Durable so the
      -- CLI and the UI list the same requests, and a daemon restart can cancel the pending ones.
      CREATE TABLE approvals (
        id          TEXT PRIMARY KEY,
        agent_id    TEXT NOT NULL,
        runtime     TEXT NOT NULL,
        turn_id     TEXT,
        wake_tokens TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('command', 'file_change', 'other')),
        tool        TEXT NOT NULL,
        summary     TEXT NOT NULL,
        detail      TEXT NOT NULL,
        rule        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('pending', 'allowed', 'denied', 'expired', 'cancelled')),
        scope       TEXT CHECK (scope IN ('once', 'session', 'always')),
        reason      TEXT,
        created_at  TEXT NOT NULL,
        expires_at  TEXT NOT NULL,
        answered_at TEXT
      ) STRICT;
      CREATE INDEX approvals_pending ON approvals (status) WHERE status = 'pending';
      `,
  },
  {
    version: 5,
    name: 'external channels: undelivered per channel, channel cursors, telegram bindings',
    sql: `
      -- Watchdog spec B on an external channel (issue 18): a reply kept for re-delivery goes out
      -- again on the channel that failed it, never on another one.
      ALTER TABLE undelivered ADD COLUMN channel TEXT NOT NULL DEFAULT 'local';

      -- A channel's durable position in its provider's stream, e.g. Telegram's getUpdates offset
      -- (the next update_id to ask for): a restart neither loses nor replays an update.
      CREATE TABLE channel_cursors (
        channel    TEXT PRIMARY KEY,
        position   INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      -- Bindings added in the Settings page (agentteam.json's own are never rewritten).
      CREATE TABLE telegram_bindings (
        chat_id    INTEGER PRIMARY KEY,
        target     TEXT NOT NULL UNIQUE,
        allow_from TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  // ---- issue 16 (contract §6.6, §9.4; DESIGN.md `wakes --json` recoveries) ----
  {
    version: 6,
    name: 'recovery and agent cursors',
    sql: `
      -- How many §6.6 recovery continuations covered this wake (at most one: a message that kills
      -- the runtime cannot loop), shown as recoveries by wakes --json.
      ALTER TABLE wakes ADD COLUMN recoveries INTEGER NOT NULL DEFAULT 0;
      -- What ended the session whose wakes a marker recovers (daemon_restarted, process_replaced,
      -- context_compacted, context_overflow): the recovery prompt says it in words.
      ALTER TABLE recovery_markers ADD COLUMN cause TEXT;
      -- Per agent and canonical target: SeenUpToSeq (highest TargetSeq made runtime-visible, bumped
      -- in the transaction that records the wake delivered) and RepliedUpToSeq (highest TargetSeq a
      -- stored reply of the agent covered, bumped in the transaction that stores the reply), so both
      -- survive a restart and a recovery never asks again for a reply that already landed.
      CREATE TABLE agent_cursors (
        agent_id          TEXT NOT NULL,
        target            TEXT NOT NULL,
        seen_up_to_seq    INTEGER NOT NULL DEFAULT 0,
        replied_up_to_seq INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (agent_id, target)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  // ---- issue 24: a native compaction is a continuation, noted on the wake's timeline ----
  {
    version: 7,
    name: 'wake event kind compaction',
    sql: `
      -- The runtime compacted its context while working on the wake and went on (contract §8.3):
      -- the inspector shows "context compacted". SQLite cannot change a CHECK: the append-only
      -- table is rebuilt with its rows, ids, index and triggers as they were.
      DROP TRIGGER wake_events_append_only_update;
      DROP TRIGGER wake_events_append_only_delete;
      CREATE TABLE wake_events_v7 (
        id         INTEGER PRIMARY KEY,
        wake_token TEXT NOT NULL REFERENCES wakes (token),
        kind       TEXT NOT NULL CHECK (kind IN ('status', 'beacon', 'escalation', 'final_check', 'delivery', 'alert', 'compaction')),
        status     TEXT,
        reason     TEXT,
        detail     TEXT,
        at         TEXT NOT NULL
      ) STRICT;
      INSERT INTO wake_events_v7 (id, wake_token, kind, status, reason, detail, at)
        SELECT id, wake_token, kind, status, reason, detail, at FROM wake_events;
      DROP TABLE wake_events;
      ALTER TABLE wake_events_v7 RENAME TO wake_events;
      CREATE INDEX wake_events_token ON wake_events (wake_token, id);
      CREATE TRIGGER wake_events_append_only_update BEFORE UPDATE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;
      CREATE TRIGGER wake_events_append_only_delete BEFORE DELETE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;
    `,
  },
  // ---- issue 24: the §10.1 fields in the journal; the wakes an audited send came from ----
  {
    version: 8,
    name: 'wake agent names and model, audit wake tokens',
    sql: `
      -- contract §10.1: the agent's public technical name and display name as the daemon resolved
      -- them when it accepted the wake, and the model of its runtime context (null: none set, or a
      -- wake recorded before this version).
      ALTER TABLE wakes ADD COLUMN agent_name TEXT;
      ALTER TABLE wakes ADD COLUMN agent_display_name TEXT;
      ALTER TABLE wakes ADD COLUMN model TEXT;
      -- contract §8.3: the wakes the agent was handling when it sent across targets (a JSON array),
      -- so the send shows on their timelines.
      ALTER TABLE audit ADD COLUMN wake_tokens TEXT NOT NULL DEFAULT '[]';
    `,
  },
  // ---- issue 17: search across conversations (FTS5) ----
  {
    version: 4,
    name: 'message search (FTS5, trigram)',
    sql: `
      -- An external-content FTS5 index over messages.content (the text is stored once, in
      -- messages). The trigram tokenizer, not unicode61: unicode61 keeps a run of CJK characters
      -- as one token, so "部署" would never match inside "讨论部署问题". Trigram matches any
      -- substring of 3+ characters in any script (shorter terms are matched with LIKE, see
      -- store/tables/message-search.ts). The triggers keep the index in the transaction of the write.
      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        content,
        content = 'messages',
        content_rowid = 'rowid_',
        tokenize = 'trigram'
      );
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, content) VALUES (new.rowid_, new.content);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.rowid_, old.content);
      END;
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.rowid_, old.content);
        INSERT INTO messages_fts (rowid, content) VALUES (new.rowid_, new.content);
      END;
      -- Backfill the messages stored before this version.
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
    `,
  },
  // ---- issue 29: "always" grants are daemon-owned ----
  {
    version: 9,
    name: 'daemon-owned always grants',
    sql: `
      -- The rules an operator granted ("Always", or confirming one found in agentteam.json). The
      -- approval path answers only from here; agentteam.json's "allow" lists them for reading.
      CREATE TABLE grants (
        agent_id    TEXT NOT NULL,
        rule        TEXT NOT NULL,
        granted_at  TEXT NOT NULL,
        approval_id TEXT,
        PRIMARY KEY (agent_id, rule)
      ) STRICT;
    `,
  },
  // ---- issue 25: agent chains ----
  {
    version: 10,
    name: 'agent chains and the chain of each wake and message',
    sql: `
      -- A chain: the operator message that started it (its id) and every wake that followed.
      -- hops counts its agent-caused wakes (mentions by agents, hand-backs); at hops = budget
      -- it is paused and further agent-caused wakes are held until the operator's Continue.
      CREATE TABLE chains (
        id              TEXT PRIMARY KEY,
        target          TEXT NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('open', 'paused')),
        hops            INTEGER NOT NULL DEFAULT 0,
        budget          INTEGER NOT NULL,
        continues       INTEGER NOT NULL DEFAULT 0,
        held_message_id TEXT,
        held_for        TEXT NOT NULL DEFAULT '[]',
        started_at      TEXT NOT NULL,
        paused_at       TEXT,
        updated_at      TEXT NOT NULL
      ) STRICT;
      CREATE INDEX chains_target ON chains (target, started_at);
      ALTER TABLE wakes ADD COLUMN chain_id TEXT;
      -- 'operator' | 'agent_mention' | 'hand_back' | 'recovery' (shared/api/contract.ts WAKE_CAUSES)
      ALTER TABLE wakes ADD COLUMN cause TEXT NOT NULL DEFAULT 'operator';
      ALTER TABLE wakes ADD COLUMN hop INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE wakes ADD COLUMN hop_budget INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE wakes ADD COLUMN asked_by TEXT;
      ALTER TABLE wakes ADD COLUMN asked_by_name TEXT;
      ALTER TABLE messages ADD COLUMN chain_id TEXT;
    `,
  },
  // ---- issue 26: the changes of every wake ----
  {
    version: 11,
    name: 'wake changes',
    sql: `
      -- One row per wake of an agent whose workspace was looked at: the snapshots taken when the
      -- wake was delivered and when it ended (git tree ids), and the files changed between them
      -- (a JSON array: path, old_path, status, added, removed, binary, the bounded patch or why it
      -- is omitted). 'untracked' with its reason when the workspace is not in a git work tree.
      CREATE TABLE wake_changes (
        wake_token TEXT PRIMARY KEY,
        agent_id   TEXT NOT NULL,
        state      TEXT NOT NULL,
        workspace  TEXT NOT NULL,
        root       TEXT,
        reason     TEXT,
        start_tree TEXT,
        end_tree   TEXT,
        files      TEXT NOT NULL DEFAULT '[]',
        started_at TEXT NOT NULL,
        ended_at   TEXT
      ) STRICT;
      CREATE INDEX wake_changes_agent ON wake_changes (agent_id, started_at);
    `,
  },
  {
    version: 12,
    name: 'usage per wake, limit windows, usage warnings (issue 27)',
    sql: `
      -- The usage the runtime reported for a wake's turns (normalised: shared/usage.ts), summed;
      -- aggregated per agent per UTC day on read. cost_usd is NULL where the CLI reports no cost.
      CREATE TABLE wake_usage (
        wake_token    TEXT PRIMARY KEY,
        agent_id      TEXT NOT NULL,
        runtime       TEXT NOT NULL,
        day           TEXT NOT NULL,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        cost_usd      REAL,
        turns         INTEGER NOT NULL,
        updated_at    TEXT NOT NULL
      ) STRICT;
      CREATE INDEX wake_usage_agent_day ON wake_usage (agent_id, day);

      -- The latest rate-limit window each agent's provider announced.
      CREATE TABLE limit_windows (
        agent_id       TEXT NOT NULL,
        window         TEXT NOT NULL,
        runtime        TEXT NOT NULL,
        window_minutes INTEGER,
        used_percent   REAL,
        resets_at      TEXT,
        observed_at    TEXT NOT NULL,
        PRIMARY KEY (agent_id, window)
      ) STRICT;

      -- A warning given once (80 % of a window until its reset, of a budget per day): survives restarts.
      CREATE TABLE usage_warnings (
        agent_id TEXT NOT NULL,
        key      TEXT NOT NULL,
        at       TEXT NOT NULL,
        PRIMARY KEY (agent_id, key)
      ) STRICT;
    `,
  },
  {
    version: 13,
    name: 'agent pauses (issue 27)',
    sql: `
      -- issue 27 "pause, don't fail": an agent whose turn a usage or rate limit refused (or whose
      -- daily budget is reached) waits until resets_at (epoch ms; NULL: until the budget says not
      -- reached). Its wakes are stored 'paused'; after a restart the recovery service re-arms the reset.
      CREATE TABLE agent_pauses (
        agent_id  TEXT PRIMARY KEY,
        kind      TEXT NOT NULL CHECK (kind IN ('usage_limit', 'daily_budget')),
        resets_at INTEGER,
        detail    TEXT,
        paused_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 14,
    name: 'usage per agent per day, kept as wake_usage changes (issue 30)',
    sql: `
      -- issue 30: the budget check before each delivery and usage.summary read a day's total; summing
      -- wake_usage on read made each read O(that day's wakes). usage_days holds the same sums, kept
      -- by triggers in the transaction that writes wake_usage (a wake's row keeps its first day).
      -- cost_usd stays NULL while no wake of the day reported a cost (as SUM over NULLs).
      CREATE TABLE usage_days (
        agent_id      TEXT NOT NULL,
        runtime       TEXT NOT NULL,
        day           TEXT NOT NULL,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        cost_usd      REAL,
        wakes         INTEGER NOT NULL,
        turns         INTEGER NOT NULL,
        PRIMARY KEY (agent_id, day, runtime)
      ) STRICT;
      CREATE INDEX usage_days_day ON usage_days (day);
      INSERT INTO usage_days
        SELECT agent_id, runtime, day, SUM(input_tokens), SUM(output_tokens), SUM(cached_tokens), SUM(cost_usd),
               COUNT(*), SUM(turns)
          FROM wake_usage GROUP BY agent_id, runtime, day;
      CREATE TRIGGER wake_usage_days_insert AFTER INSERT ON wake_usage BEGIN
        INSERT INTO usage_days (agent_id, runtime, day, input_tokens, output_tokens, cached_tokens, cost_usd, wakes, turns)
        VALUES (NEW.agent_id, NEW.runtime, NEW.day, NEW.input_tokens, NEW.output_tokens, NEW.cached_tokens, NEW.cost_usd, 1, NEW.turns)
        ON CONFLICT (agent_id, day, runtime) DO UPDATE SET
          input_tokens = input_tokens + excluded.input_tokens,
          output_tokens = output_tokens + excluded.output_tokens,
          cached_tokens = cached_tokens + excluded.cached_tokens,
          cost_usd = CASE WHEN excluded.cost_usd IS NULL THEN cost_usd ELSE COALESCE(cost_usd, 0) + excluded.cost_usd END,
          wakes = wakes + 1,
          turns = turns + excluded.turns;
      END;
      CREATE TRIGGER wake_usage_days_update AFTER UPDATE ON wake_usage BEGIN
        UPDATE usage_days SET
          input_tokens = input_tokens + NEW.input_tokens - OLD.input_tokens,
          output_tokens = output_tokens + NEW.output_tokens - OLD.output_tokens,
          cached_tokens = cached_tokens + NEW.cached_tokens - OLD.cached_tokens,
          cost_usd = CASE WHEN NEW.cost_usd IS NULL THEN cost_usd
                          ELSE COALESCE(cost_usd, 0) + NEW.cost_usd - COALESCE(OLD.cost_usd, 0) END,
          turns = turns + NEW.turns - OLD.turns
        WHERE agent_id = NEW.agent_id AND day = NEW.day AND runtime = NEW.runtime;
      END;
    `,
  },
  // ---- issue 38: the continuation after an overflow's compaction is a prompt_input (contract §8.4) ----
  {
    version: 15,
    name: 'prompt input kind continuation',
    sql: `
      -- The prompt that continues the same wakes after the session compacted on an overflow is
      -- written into the runtime, so it is in the trajectory. SQLite cannot change a CHECK: the
      -- table is rebuilt with its rows and seqs, and prompt_input_wakes (which references it) with
      -- it, children dropped before their parent, so no foreign key is ever left dangling.
      CREATE TABLE prompt_inputs_v15 (
        seq         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        agent_id    TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('turn_context', 'delivery', 'final_check', 'recovery', 'continuation')),
        wake_tokens TEXT NOT NULL,
        text        TEXT NOT NULL,
        at          TEXT NOT NULL
      ) STRICT;
      INSERT INTO prompt_inputs_v15 (seq, id, agent_id, kind, wake_tokens, text, at)
        SELECT seq, id, agent_id, kind, wake_tokens, text, at FROM prompt_inputs;
      CREATE TABLE prompt_input_wakes_v15 (
        wake_token       TEXT NOT NULL,
        prompt_input_seq INTEGER NOT NULL REFERENCES prompt_inputs_v15 (seq),
        PRIMARY KEY (wake_token, prompt_input_seq)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO prompt_input_wakes_v15 (wake_token, prompt_input_seq)
        SELECT wake_token, prompt_input_seq FROM prompt_input_wakes;
      DROP TABLE prompt_input_wakes;
      DROP TABLE prompt_inputs;
      ALTER TABLE prompt_inputs_v15 RENAME TO prompt_inputs;
      ALTER TABLE prompt_input_wakes_v15 RENAME TO prompt_input_wakes;
    `,
  },
  // ---- issue 39: channels are plug-ins; their state is keyed by channel, not named after Telegram ----
  {
    version: 16,
    name: 'channel bindings keyed by channel',
    sql: `
      -- Bindings added in the Settings page, of any channel (channels/channel-plugin.ts): a chat of
      -- a channel is bound once, a conversation once per channel. The chat is the channel's own id
      -- (Telegram's chat id as text); allow_from stays the channel's JSON list of user ids. The
      -- Telegram rows keep their order (created_at, then the order they were listed in). Written to
      -- run again on a store taken back to an older version by hand (the store tests do).
      CREATE TABLE IF NOT EXISTS telegram_bindings (
        chat_id    INTEGER PRIMARY KEY,
        target     TEXT NOT NULL UNIQUE,
        allow_from TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE IF NOT EXISTS channel_bindings (
        channel    TEXT NOT NULL,
        chat_id    TEXT NOT NULL,
        target     TEXT NOT NULL,
        allow_from TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (channel, chat_id),
        UNIQUE (channel, target)
      ) STRICT;
      INSERT INTO channel_bindings (channel, chat_id, target, allow_from, created_at)
        SELECT 'telegram', CAST(chat_id AS TEXT), target, allow_from, created_at FROM telegram_bindings
        ORDER BY created_at, chat_id;
      DROP TABLE telegram_bindings;
    `,
  },
  // ---- issue 42: a sleeping agent woken for a wake, noted on the wake's timeline ----
  {
    version: 17,
    name: 'wake event kind wake_up',
    sql: `
      -- The agent slept (its CLI process stopped while idle) and was started again in the same
      -- session for the wake: the inspector shows "woke the agent (2.1 s)". SQLite cannot change a
      -- CHECK: the append-only table is rebuilt with its rows, ids, index and triggers as they were.
      DROP TRIGGER wake_events_append_only_update;
      DROP TRIGGER wake_events_append_only_delete;
      CREATE TABLE wake_events_v17 (
        id         INTEGER PRIMARY KEY,
        wake_token TEXT NOT NULL REFERENCES wakes (token),
        kind       TEXT NOT NULL CHECK (kind IN ('status', 'beacon', 'escalation', 'final_check', 'delivery', 'alert', 'compaction', 'wake_up')),
        status     TEXT,
        reason     TEXT,
        detail     TEXT,
        at         TEXT NOT NULL
      ) STRICT;
      INSERT INTO wake_events_v17 (id, wake_token, kind, status, reason, detail, at)
        SELECT id, wake_token, kind, status, reason, detail, at FROM wake_events;
      DROP TABLE wake_events;
      ALTER TABLE wake_events_v17 RENAME TO wake_events;
      CREATE INDEX wake_events_token ON wake_events (wake_token, id);
      CREATE TRIGGER wake_events_append_only_update BEFORE UPDATE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;
      CREATE TRIGGER wake_events_append_only_delete BEFORE DELETE ON wake_events
        BEGIN SELECT RAISE(ABORT, 'wake_events is append-only'); END;
    `,
  },
];

/** The newest version. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

/** Applies the migrations this file has and the database lacks; refuses a database newer than this code. */
export function migrate(db: DatabaseSync, path: string, log: DaemonLog | undefined): void {
  const current = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (current > SCHEMA_VERSION) {
    throw new StoreError(
      'store_too_new',
      `The store ${path} has schema version ${current}, newer than this AgentTeam (${SCHEMA_VERSION}); update AgentTeam or use another --data-dir.`,
    );
  }
  // In version order whatever the list order.
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    log?.info('store: migrated', { path, version: m.version, name: m.name });
  }
}
