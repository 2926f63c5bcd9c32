/**
 * A wake's Details (issue 15, UI.md "Failure Details"): the reason in plain words with the fix
 * first, then the raw detail in a monospace block behind a "Raw detail" disclosure of its own
 * (issue 40 item 5: no raw runtime line is shown as a reason, nor right under it — only when the
 * person asks). A wake that ended without a reply after one of our own refusals of its
 * `message_send` says which refusal it was. Collapsed until opened.
 */
import { useId, useState } from 'react';
import {
  failureWords,
  httpStatusOf,
  refusalOf,
  refusalWords,
  UNKNOWN_RUNTIME_WORDS,
  type RuntimeWords,
} from '../../../shared/agent-readiness.js';
import type { Wake } from '../../../shared/api/contract.js';
import { isFailureReason } from '../../../shared/wake-status.js';
import { copy, type Language } from '../i18n/copy.js';
import type { AgentIdentity } from '../state/agent-store.js';
import { FixText } from './fix-text.js';

/** The plain words for a wake's outcome, or null when there is nothing to explain. */
export function wakeOutcomeWords(wake: Wake, language: Language, words: RuntimeWords): string | null {
  if (wake.status === 'failed')
    return failureWords(isFailureReason(wake.reason) ? wake.reason : 'runtime_error', language, {
      words,
      httpStatus: httpStatusOf(wake.detail),
      continued: wake.recoveries > 0,
    });
  const refusal = refusalOf(wake.detail);
  return refusal === null ? null : refusalWords(refusal, language);
}

/** issue 39: the runtime words of a wake's agent, as the daemon sent them in the agent view (neutral when it is gone). */
export function runtimeWordsOf(agents: readonly AgentIdentity[] | undefined, agentId: string): RuntimeWords {
  return agents?.find((a) => a.id === agentId)?.runtimeWords ?? UNKNOWN_RUNTIME_WORDS;
}

export function FailureDetails({
  wake,
  language,
  agents,
}: {
  wake: Wake;
  language: Language;
  /** Who the agents are, with their runtime words (the roster). */
  agents?: readonly AgentIdentity[];
}) {
  const words = wakeOutcomeWords(wake, language, runtimeWordsOf(agents, wake.agentId));
  const raw = wake.detail ?? (wake.status === 'failed' ? wake.reason : null);
  if (words === null && (wake.status !== 'failed' || raw === null)) return null;
  return (
    <details className="failure-details" data-reason={wake.reason ?? undefined}>
      {/* A wake that ended without a reply is not a failure (contract §10.3): its summary stays neutral. */}
      <summary>{copy(language, wake.status === 'failed' ? 'inspector.details' : 'chip.details')}</summary>
      {words !== null && (
        <p className="failure-words">
          <FixText text={words} />
        </p>
      )}
      {raw !== null && <RawDetail text={raw} language={language} as="pre" />}
    </details>
  );
}

/**
 * issue 40 item 5: the raw runtime line (`terminal_reason completed: Not logged in · Please run
 * /login`) behind its own disclosure, closed until the person opens it: the reason and its fix
 * are the sentence above it. As text, never markup. The failed chip's Details and the
 * inspector's both use it.
 */
export function RawDetail({ text, language, as: Tag }: { text: string; language: Language; as: 'pre' | 'code' }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        className="failure-raw-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {copy(language, 'chip.rawDetail')}
      </button>
      {open && (
        <Tag id={id} className="failure-raw">
          {text}
        </Tag>
      )}
    </>
  );
}
