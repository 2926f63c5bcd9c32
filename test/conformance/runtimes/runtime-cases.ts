/**
 * The runtime conformance table (issue 10): the same cases, with the same markers of the
 * scripted fake model (test/fixtures/fake-model-script.ts), drive every real runtime.
 * Runtime-neutral on purpose: a case names the operator's text and the contract outcome,
 * never a transport detail, so the Claude Code suite can run this table unchanged.
 */
import type { TerminalWakeStatus } from '../../../shared/wake-status.js';

export interface RuntimeCase {
  /** Test name: the spec case it proves. */
  readonly name: string;
  /** Each case on its own target, so one long-lived session can run them all in turn. */
  readonly target: string;
  readonly text: string;
  readonly status: TerminalWakeStatus;
  readonly reason: string | null;
  /**
   * contract §6.4: at most one final-check per wake — 1 where the model needs it, 0 where a reply
   * came first. Both suites count it in the host's record AND at the fake model server
   * (test/fixtures/model-final-checks.ts), i.e. what really reached the model.
   */
  readonly finalChecks: 0 | 1;
  /** Messages the agent posted on the case's target. */
  readonly sends: number;
  /** A target the agent tries and must be refused on (`out_of_scope`, contract §8.3). */
  readonly refusedTarget?: string;
  /** Text the model prints locally that must appear nowhere (contract §6.1, §6.5). */
  readonly secret?: string;
  /** Silence-watchdog beacons expected during the turn (watchdog spec A). */
  readonly beacons?: boolean;
}

export const SECRET = 'S3CRET-PLAIN-7f3a';

export const RUNTIME_CASES: readonly RuntimeCase[] = [
  {
    name: 'reply via the message_send tool → reply_sent, no final-check (contract §6.1, §9.2)',
    target: '#conf-tool',
    text: '[[tool]] What is the build status?',
    status: 'reply_sent',
    reason: null,
    finalChecks: 0,
    sends: 1,
  },
  {
    name: 'local text, then a reply after the one final-check → reply_sent (contract §6.4, §8.3)',
    target: '#conf-local',
    text: '[[local]] Summarise the logs.',
    status: 'reply_sent',
    reason: null,
    finalChecks: 1,
    sends: 1,
  },
  {
    name: 'local text twice → completed_without_visible_reply, reason no_reply, no second check (contract §6.4, §9.3)',
    target: '#conf-silent',
    text: '[[local-twice]] [[local]] Think about it.',
    status: 'completed_without_visible_reply',
    reason: 'no_reply',
    finalChecks: 1,
    sends: 0,
  },
  {
    name: 'model API error → failed, never reclassified as no reply (contract §9.2)',
    target: '#conf-error',
    text: '[[error400]] This request breaks the API.',
    status: 'failed',
    // issue 15: every failure names its reason from one vocabulary; a model API refusal is the provider's.
    reason: 'provider_error',
    finalChecks: 0,
    sends: 0,
  },
  {
    name: 'long tool-only turn → silence beacons, then the reply (watchdog spec A)',
    target: '#conf-slow',
    text: '[[slow:4:1000]] [[tool]] Take your time.',
    status: 'reply_sent',
    reason: null,
    finalChecks: 0,
    sends: 1,
    beacons: true,
  },
  {
    name: 'send to a target outside the turn scope → refused out_of_scope, nothing written (contract §8.3)',
    target: '#conf-scope',
    text: '[[tool]] Post the answer to target "#elsewhere".',
    status: 'reply_sent',
    reason: null,
    finalChecks: 1,
    sends: 1,
    refusedTarget: '#elsewhere',
  },
  {
    name: 'plain text the model prints appears nowhere: messages, statuses, journal, logs (contract §6.1, §6.5)',
    target: '#conf-secret',
    text: `[[secret:${SECRET}]] Print the secret.`,
    status: 'reply_sent',
    reason: null,
    finalChecks: 1,
    sends: 1,
    secret: SECRET,
  },
];
