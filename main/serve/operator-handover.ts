/**
 * issue 40 item 1: a page keeps the operator's authority across a restart of `agentteam serve`
 * (`npm start` again) without the person copying a URL — through a hand-over the operator's own
 * browser tab can make and an agent's process cannot.
 *
 * Why this design. Agents run as the same OS user and may read the data dir; so may whatever a
 * crash leaves there. The previous start's operator key itself is no proof: it sat in clear in
 * `<data-dir>/operator-key` for the CLI during that start, and stays there after an unclean stop
 * (kill -9, a crash) until the next start overwrites it. So the proof is a **hand-over secret that
 * never touches the disk**: each time the tab's connection is the operator's, the tab sends a fresh
 * random secret (`next`, crypto.getRandomValues, kept only in that tab's sessionStorage); the daemon
 * keeps in memory and in `<data-dir>/operator-handover` (0600) only its SHA-256 — 256 random bits,
 * so the digest cannot be turned back into the secret. After a restart the tab presents its secret
 * (`secret`); the new start hashes it and compares it with the previous start's digests. A match
 * makes that connection the operator's, the digest is spent (once: a second presentation of the
 * same secret is refused, and a secret stolen from a tab cannot be replayed after the tab used it),
 * and the answer carries the new start's operator key for the tab's later reconnects. Nothing an
 * agent can read — the digests, the previous or the current key files, the serve token — is a
 * secret whose digest is recorded (test/unit/main/serve/operator-handover.test.ts). Only the
 * previous start's digests are honoured: a tab that slept through two restarts is told in one line
 * what to open instead. A browser is the only client that asks (it must send an Origin header),
 * which is no security boundary (any local process can forge one) but keeps the CLI out of it.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DaemonLog } from '../daemon/daemon-log.js';
import type { HandoverRequest } from '../../shared/api/ws-protocol.js';
import { tokenMatches } from './token.js';

/** The digests of this start's hand-over secrets, one line each (hex SHA-256), 0600. */
export const OPERATOR_HANDOVER_FILE = 'operator-handover';
/** How many tabs' digests one start keeps (each open tab has one; the oldest goes first). */
const MAX_DIGESTS = 32;
const DIGEST_SHAPE = /^[0-9a-f]{64}$/;

const digestOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

async function readDigests(path: string): Promise<string[]> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter((line) => DIGEST_SHAPE.test(line));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') return [];
    throw err;
  }
}

export class OperatorHandover {
  /** The previous start's digests not yet spent. */
  readonly #claimable: Set<string>;
  /** This start's digests, oldest first (what the next start honours). */
  readonly #registered: string[] = [];
  #writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly operatorKey: string,
    previous: readonly string[],
    private readonly log: DaemonLog,
  ) {
    this.#claimable = new Set(previous);
  }

  /**
   * Reads the previous start's digests and starts this start's file empty: they are honoured by
   * this start only, never carried to the next one.
   */
  static async open(dataDir: string, operatorKey: string, log: DaemonLog): Promise<OperatorHandover> {
    const path = join(dataDir, OPERATOR_HANDOVER_FILE);
    const handover = new OperatorHandover(path, operatorKey, await readDigests(path), log);
    await handover.#persist();
    return handover;
  }

  /**
   * One connection's hand-over (its first frame on each open, ws-protocol.ts
   * `WS_HANDOVER_CALL`): `operator` says whether it was already the operator's (it presented this
   * start's key). Answers whether it is the operator's now and, when it is, this start's key.
   */
  exchange(request: HandoverRequest, operator: boolean): { operator: false } | { operator: true; key: string } {
    const presented = request.secret === undefined ? null : digestOf(request.secret);
    let granted = operator || tokenMatches(this.operatorKey, request.key);
    if (!granted && presented !== null && this.#claimable.delete(presented)) {
      granted = true;
      this.log.info('serve: operator authority handed over to a page of the previous start');
    }
    if (!granted) {
      if (request.secret !== undefined)
        this.log.warn('serve: operator hand-over refused (not a secret of the previous start, or already used)');
      return { operator: false };
    }
    // The tab's secret of this start (a reconnect) gives way to its next one.
    if (presented !== null) {
      const at = this.#registered.indexOf(presented);
      if (at >= 0) this.#registered.splice(at, 1);
    }
    this.#registered.push(digestOf(request.next));
    if (this.#registered.length > MAX_DIGESTS) this.#registered.shift();
    void this.#persist();
    return { operator: true, key: this.operatorKey };
  }

  /** Writes the file whole (a temporary file renamed over it), one write after the other. */
  #persist(): Promise<void> {
    const text = this.#registered.map((d) => `${d}\n`).join('');
    this.#writing = this.#writing.then(async () => {
      const tmp = `${this.path}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, text, { mode: 0o600 });
        await rename(tmp, this.path);
      } catch (err) {
        // The page still works in this start; only a hand-over after the next restart is lost.
        this.log.warn('serve: could not record the operator hand-over', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
    return this.#writing;
  }

  /** Resolves once every recorded digest is on disk (tests, a clean stop). */
  settled(): Promise<void> {
    return this.#writing;
  }
}
