/**
 * issue 26: the review pane of one wake — its changed files, each file's hunks with line numbers
 * (react-diff-view over git's own patch, parsed by gitdiff-parser), unified or side by side. Every
 * line number is a button: Enter (or a click) opens a comment under that line, sent to the agent in
 * the wake's thread with `path:line` and the hunk header. The same pane shows an isolated agent's
 * "changes since base" on its detail (`source`), without comments there: those changes belong to
 * no one wake, so there is no thread to answer in (comment on the wake that made the change).
 * State lives in state/review-store.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Diff, Hunk, getChangeKey, parseDiff, type ChangeData, type HunkData } from 'react-diff-view';
import 'react-diff-view/style/index.css';
import type { ChangedFile, ClientApi } from '../../../shared/api/contract.js';
import { copy, type Language } from '../i18n/copy.js';
import { ReviewStore, reviewSourceKey, type ReviewSource, type ReviewViewType } from '../state/review-store.js';
import { useValue } from '../state/value-store.js';
import './review-pane.css';

export interface ReviewPaneProps {
  readonly api: ClientApi;
  /** A wake's changes (the inspector) or an isolated agent's changes since base (the agent detail). */
  readonly source: ReviewSource;
  readonly language: Language;
  /** Changes when the source changes (a wake's status, a merge), so the pane re-reads it. */
  readonly revision: string;
  /** The heading (default "Changes"). */
  readonly title?: string;
}

const lineOf = (change: ChangeData, side: 'old' | 'new'): number | null => {
  if (change.type === 'normal') return side === 'old' ? change.oldLineNumber : change.newLineNumber;
  if (change.type === 'insert') return side === 'new' ? change.lineNumber : null;
  return side === 'old' ? change.lineNumber : null;
};

export function ReviewPane({ api, source, language, revision, title }: ReviewPaneProps) {
  const key = reviewSourceKey(source);
  // Keyed by value: the source object is new on every render.
  const store = useMemo(() => new ReviewStore(api, source), [api, key]);
  const state = useValue(store);
  const t = (key: Parameters<typeof copy>[1], vars?: Record<string, string | number>) => copy(language, key, vars);
  useEffect(() => {
    void store.load();
  }, [store, revision]);
  useEffect(() => store.follow(), [store]);

  const c = state.changes;
  return (
    <section className="review-pane" aria-labelledby={`review-title-${key}`} data-source={source.kind}>
      <h3 id={`review-title-${key}`}>{title ?? t('review.title')}</h3>
      {state.error !== null && <p role="alert">{t('review.error', { message: state.error })}</p>}
      {state.sent !== null && <p role="status">{t('review.sent')}</p>}
      {c === null && state.error === null && <p>{t('review.loading')}</p>}
      {c !== null && c.state === 'none' && <p>{t('review.none')}</p>}
      {c !== null && c.state === 'pending' && <p>{t('review.pending')}</p>}
      {c !== null && c.state === 'untracked' && (
        // `untracked` is only ever "outside git" (a git failure is `failed`): the copy says why, the path is data.
        <p className="review-untracked">
          {t('review.untracked')} <code>{c.workspace ?? ''}</code>
        </p>
      )}
      {c !== null && c.state === 'failed' && <p role="alert">{t('review.failed', { reason: c.reason ?? '' })}</p>}
      {c !== null && c.state === 'tracked' && c.files.length === 0 && <p>{t('review.empty')}</p>}
      {c !== null && c.files.length > 0 && (
        <>
          <div className="review-toolbar" role="radiogroup" aria-label={t('review.viewType')}>
            {(['unified', 'split'] as const satisfies readonly ReviewViewType[]).map((v) => (
              <button
                key={v}
                type="button"
                role="radio"
                aria-checked={state.viewType === v}
                onClick={() => store.setViewType(v)}
              >
                {t(v === 'unified' ? 'review.unified' : 'review.split')}
              </button>
            ))}
          </div>
          <ul className="review-files" aria-label={t('review.files')}>
            {c.files.map((f) => (
              <li key={f.path}>
                <button
                  type="button"
                  aria-current={state.file === f.path ? 'true' : undefined}
                  onClick={() => store.showFile(f.path)}
                  data-path={f.path}
                >
                  <span className="review-file-path">{f.path}</span>
                  <span className="review-file-status">{t(`review.status.${f.status}`)}</span>
                  <span className="review-file-counts">{f.binary ? '' : `+${f.added ?? 0} −${f.removed ?? 0}`}</span>
                </button>
              </li>
            ))}
          </ul>
          {c.files
            .filter((f) => f.path === state.file)
            .map((f) => (
              <FileDiff key={f.path} file={f} store={store} language={language} />
            ))}
        </>
      )}
    </section>
  );
}

function FileDiff({ file, store, language }: { file: ChangedFile; store: ReviewStore; language: Language }) {
  const state = useValue(store);
  const t = (key: Parameters<typeof copy>[1], vars?: Record<string, string | number>) => copy(language, key, vars);
  const parsed = useMemo(() => (file.patch === null ? [] : parseDiff(file.patch)), [file.patch]);
  if (file.patch === null || file.omitted !== null)
    return <p className="review-omitted">{t(`review.${file.omitted ?? 'too_large'}`)}</p>;
  const hunkOf = (change: ChangeData, hunks: readonly HunkData[]) =>
    hunks.find((h) => h.changes.includes(change))?.content ?? '';
  return (
    <>
      {parsed.map((d) => {
        const commenting = state.commenting;
        const widgets =
          commenting === null
            ? {}
            : { [commenting.key]: <CommentForm key={commenting.key} store={store} language={language} /> };
        return (
          <Diff
            key={`${d.oldRevision}-${d.newRevision}`}
            viewType={state.viewType}
            diffType={d.type}
            hunks={d.hunks}
            widgets={widgets}
            className="review-diff"
            renderGutter={({ change, side, renderDefault }) => {
              const line = lineOf(change, side);
              if (line === null || !store.commentable) return renderDefault();
              const where = `${file.path}:${line}`;
              return (
                <button
                  type="button"
                  className="review-line"
                  aria-label={t('review.commentOn', { where })}
                  onClick={() =>
                    store.startComment(getChangeKey(change), {
                      path: file.path,
                      line,
                      side,
                      hunkHeader: hunkOf(change, d.hunks),
                      lineText: change.content,
                    })
                  }
                >
                  {line}
                </button>
              );
            }}
          >
            {(hunks) => hunks.map((h) => <Hunk key={h.content} hunk={h} />)}
          </Diff>
        );
      })}
    </>
  );
}

function CommentForm({ store, language }: { store: ReviewStore; language: Language }) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  const at = store.value.commenting?.at;
  useEffect(() => ref.current?.focus(), []);
  if (at === undefined) return null;
  const where = `${at.path}:${at.line}`;
  return (
    <form
      className="review-comment"
      onSubmit={(e) => {
        e.preventDefault();
        void store.sendComment(text);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          store.cancelComment();
        }
      }}
    >
      <label>
        <span>{copy(language, 'review.commentOn', { where })}</span>
        <textarea
          ref={ref}
          value={text}
          aria-label={copy(language, 'review.commentLabel')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void store.sendComment(text);
            }
          }}
        />
      </label>
      <div className="review-comment-actions">
        <button type="submit" disabled={text.trim() === ''}>
          {copy(language, 'review.send')}
        </button>
        <button type="button" onClick={() => store.cancelComment()}>
          {copy(language, 'review.cancel')}
        </button>
      </div>
    </form>
  );
}
