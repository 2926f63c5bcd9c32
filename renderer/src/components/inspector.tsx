/**
 * The inspector drawer of one wake: its timeline (statuses, beacons, final-check, delivery
 * attempts and alerts) and its `prompt_input` entries in order (contract §8.4). Failure detail
 * is inside a collapsed disclosure: shown only when the person opens it (contract §10.3).
 * Esc closes; focus returns to the chip that opened it.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiResponse, ClientApi, Wake } from '../../../shared/api/contract.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { FailureDetails } from './failure-details.js';
import { alertKindOfEvent, alertKindText, chipKind, chipText } from '../status/wake-chips.js';

export interface InspectorProps {
  readonly api: ClientApi;
  readonly wakeToken: string;
  /** The live wake (from events), so the drawer refreshes when it changes. */
  readonly wake: Wake | undefined;
  readonly language: Language;
  onClose(): void;
}

const clock = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

/** Which alert an `alert` timeline row is, in the UI's own neutral copy (the daemon's text only as a fallback). */
function alertNote(detail: string | null, language: Language): string {
  const kind = alertKindOfEvent(detail);
  return kind !== null ? alertKindText(kind, language) : (detail ?? '');
}

export function Inspector({ api, wakeToken, wake, language, onClose }: InspectorProps) {
  const [data, setData] = useState<ApiResponse<'wakes.inspect'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const revision = `${wake?.status ?? ''}:${wake?.beacons ?? 0}:${wake?.finalCheck ? 1 : 0}`;

  useEffect(() => {
    let live = true;
    void api.wakes.inspect({ wakeToken }).then((r) => {
      if (!live) return;
      if (r.ok) {
        setData(r.value);
        setError(null);
      } else setError(r.message);
    });
    return () => {
      live = false;
    };
  }, [api, wakeToken, revision]);

  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const shown = data?.wake ?? wake;
  return (
    <aside className="inspector" aria-labelledby="inspector-title" data-wake={wakeToken}>
      <header className="inspector-head">
        <h2 id="inspector-title">
          {copy(language, 'inspector.title', { token: wakeToken })}
          {shown !== undefined && <span className="inspector-agent"> · {shown.agentName}</span>}
        </h2>
        <button
          ref={closeRef}
          type="button"
          className="icon-button"
          onClick={onClose}
          aria-label={copy(language, 'inspector.close')}
        >
          ×
        </button>
      </header>
      {error !== null && <p role="alert">{copy(language, 'error.generic', { message: error })}</p>}
      {shown !== undefined && (
        <dl className="inspector-facts">
          <dt>{shown.target}</dt>
          <dd data-status={shown.status}>{chipText(shown, chipKind(shown), language, Date.now())}</dd>
          <dt>{copy(language, 'inspector.beacons', { count: shown.beacons })}</dt>
          <dd>
            {copy(language, 'inspector.finalCheck', {
              value: copy(language, shown.finalCheck ? 'inspector.yes' : 'inspector.no'),
            })}
          </dd>
        </dl>
      )}
      {shown !== undefined && <FailureDetails wake={shown} language={language} />}
      <h3>{copy(language, 'inspector.timeline')}</h3>
      {data === null && error === null && <p>{copy(language, 'inspector.loading')}</p>}
      {data !== null && (
        <ol className="timeline">
          {data.events.map((e, i) => (
            <li key={i} data-kind={e.kind} data-status={e.status ?? undefined}>
              <span className="timeline-kind">
                {e.kind === 'status' && e.status !== null
                  ? e.status
                  : copy(language, `inspector.event.${e.kind}` as CopyKey)}
              </span>
              {e.reason !== null && (
                <span className="timeline-reason">{copy(language, 'inspector.reason', { reason: e.reason })}</span>
              )}
              {e.kind === 'alert' && <span className="timeline-reason">{alertNote(e.detail, language)}</span>}
              <time dateTime={e.at}>{clock.format(new Date(e.at))}</time>
            </li>
          ))}
        </ol>
      )}
      {data !== null && (
        <>
          <h3>{copy(language, 'inspector.promptInputs', { count: data.promptInputs.length })}</h3>
          {data.promptInputs.length === 0 && <p>{copy(language, 'inspector.noPromptInputs')}</p>}
          <ol className="prompt-inputs">
            {data.promptInputs.map((p) => (
              <li key={p.id} data-prompt-kind={p.kind} data-seq={p.seq}>
                <div className="prompt-head">
                  <span className="prompt-kind">{p.kind}</span>
                  <span className="prompt-seq">#{p.seq}</span>
                  <time dateTime={p.at}>{clock.format(new Date(p.at))}</time>
                </div>
                <pre className="prompt-text" tabIndex={0}>
                  {p.text}
                </pre>
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}
