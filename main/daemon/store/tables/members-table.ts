/** `members`: the operator and the agents, with a name cache for message and reaction authors. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { MemberKind, MemberRecord } from '../store-records.js';
import type { Row } from './table-row.js';

export class MembersTable {
  private readonly upsertStmt: StatementSync;
  private readonly allStmt: StatementSync;
  private readonly names = new Map<string, string>();
  /** issue 30: the agents' names by id, kept as members change (read for every message pushed). */
  private readonly agents = new Map<string, string>();

  constructor(db: DatabaseSync) {
    this.upsertStmt =
      db.prepare(`INSERT INTO members (id, kind, name, created_at, updated_at) VALUES ($id, $kind, $name, $at, $at)
      ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, updated_at = excluded.updated_at`);
    this.allStmt = db.prepare('SELECT * FROM members ORDER BY created_at, id');
    for (const row of this.allStmt.all())
      this.#remember(String(row.id), String(row.kind) as MemberKind, String(row.name));
  }

  upsert(m: { id: string; kind: MemberKind; name: string }, at: string): void {
    this.upsertStmt.run({ id: m.id, kind: m.kind, name: m.name, at });
    this.#remember(m.id, m.kind, m.name);
  }

  /** The agent members' names by id (the same map, kept up to date). */
  agentNames(): ReadonlyMap<string, string> {
    return this.agents;
  }

  #remember(id: string, kind: MemberKind, name: string): void {
    this.names.set(id, name);
    if (kind === 'agent') this.agents.set(id, name);
    else this.agents.delete(id);
  }

  list(): MemberRecord[] {
    return this.allStmt.all().map(toMember);
  }

  /** The member's name when the id is a known member, else the id itself. */
  nameOf(id: string): string {
    return this.names.get(id) ?? id;
  }
}

function toMember(r: Row): MemberRecord {
  return {
    id: String(r.id),
    kind: String(r.kind) as MemberKind,
    name: String(r.name),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}
