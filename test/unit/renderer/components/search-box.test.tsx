// @vitest-environment happy-dom
/** Search across conversations: Ctrl+F or "/" focuses it, typing searches, arrows move, Enter opens, Esc closes. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest, ApiResponse, ApiResult, SearchResult } from '../../../../shared/api/contract.js';
import { SearchBox } from '../../../../renderer/src/components/search-box.js';
import { agentOf } from '../../../fixtures/contract-values.js';
import { ok } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

type Answer = ApiResult<ApiResponse<'messages.search'>>;
const hit = (over: Partial<SearchResult>): SearchResult => ({
  target: '#general',
  messageId: 'm1',
  seq: 1,
  authorId: 'operator',
  authorName: 'You',
  authorKind: 'operator',
  createdAt: '2026-03-02T09:05:00.000Z',
  snippet: [
    { text: 'please ', match: false },
    { text: 'deploy', match: true },
    { text: ' now', match: false },
  ],
  ...over,
});
const two = [
  hit({}),
  hit({ messageId: 'm2', seq: 2, target: 'dm:@claude', authorKind: 'agent', authorName: 'Claude' }),
];

function setup(answer: (request: ApiRequest<'messages.search'>) => Answer | Promise<Answer>, language?: 'zh-CN') {
  const search = vi.fn(async (request: ApiRequest<'messages.search'>) => answer(request));
  const onPick = vi.fn();
  render(
    <div>
      <button type="button">before</button>
      <SearchBox search={search} agents={[agentOf()]} language={language ?? 'en'} onPick={onPick} />
    </div>,
  );
  return { search, onPick, input: screen.getByRole('searchbox') as HTMLInputElement };
}
const hits = () => [...document.querySelectorAll<HTMLButtonElement>('button.search-hit')];

describe('SearchBox', () => {
  it('is labelled with its shortcut (en and 简体中文)', () => {
    const { input } = setup(() => ok({ results: [], nextBefore: null }));
    expect(input.getAttribute('aria-label')).toBe('Search messages');
    expect(input.getAttribute('placeholder')).toBe('Search');
    expect(input.getAttribute('title')).toBe('Search messages (Ctrl+F or /)');
    cleanup();
    expect(setup(() => ok({ results: [], nextBefore: null }), 'zh-CN').input.getAttribute('aria-label')).toBe(
      '搜索消息',
    );
  });

  it('Ctrl+F, and "/" outside a text field, focus it', async () => {
    const { input } = setup(() => ok({ results: [], nextBefore: null }));
    screen.getByRole('button', { name: 'before' }).focus();
    await userEvent.keyboard('{Control>}f{/Control}');
    expect(document.activeElement).toBe(input);
    screen.getByRole('button', { name: 'before' }).focus();
    await userEvent.keyboard('/');
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe('');
  });

  it('searches what is typed, says Searching… meanwhile, then lists the hits with the match marked', async () => {
    const answer = Promise.withResolvers<Answer>();
    const { search, input } = setup(() => answer.promise);
    await userEvent.type(input, 'deploy');
    expect(screen.getByRole('status').textContent).toBe('Searching…');
    await vi.waitFor(() => expect(search).toHaveBeenCalledWith({ query: 'deploy', limit: 20 }));
    expect(search).toHaveBeenCalledTimes(1); // debounced: one search for the whole word
    answer.resolve(ok({ results: two, nextBefore: null }));
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('2 results'));
    expect(hits().map((h) => h.querySelector('.search-hit-where')?.textContent)).toEqual([
      'you in #general',
      'Claude in Claude',
    ]);
    expect(hits()[0]?.querySelector('mark')?.textContent).toBe('deploy');
    expect(hits()[0]?.querySelector('.search-snippet')?.textContent).toBe('please deploy now');
  });

  it('says how many, or that nothing matched, or that search failed', async () => {
    const { input } = setup(({ query }) =>
      query === 'one'
        ? ok({ results: [hit({})], nextBefore: null })
        : query === 'boom'
          ? { ok: false, code: 'unavailable', message: 'the store is closed' }
          : ok({ results: [], nextBefore: null }),
    );
    await userEvent.type(input, 'one');
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('1 result'));
    await userEvent.clear(input);
    await userEvent.type(input, 'zzz');
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('No messages match "zzz".'));
    await userEvent.clear(input);
    await userEvent.type(input, 'boom');
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Search did not work: the store is closed'),
    );
  });

  it('renders snippets and names as text, never markup', async () => {
    const { input } = setup(() =>
      ok({
        results: [
          hit({ authorKind: 'agent', authorName: '<i>x</i>', snippet: [{ text: '<img src=x>', match: true }] }),
        ],
        nextBefore: null,
      }),
    );
    await userEvent.type(input, 'img');
    await vi.waitFor(() => expect(hits()).toHaveLength(1));
    expect(document.querySelector('.search-hits img, .search-hits i')).toBeNull();
    expect(hits()[0]?.querySelector('mark')?.textContent).toBe('<img src=x>');
  });

  it('arrows move from the field through the hits and back; Enter opens one', async () => {
    const { input, onPick } = setup(() => ok({ results: two, nextBefore: null }));
    await userEvent.type(input, 'deploy');
    await vi.waitFor(() => expect(hits()).toHaveLength(2));
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(hits()[0]);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(hits()[1]);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(input);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onPick).toHaveBeenCalledExactlyOnceWith(two[1]);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('Escape closes it, clears the query and gives focus back', async () => {
    const { input } = setup(() => ok({ results: two, nextBefore: null }));
    const before = screen.getByRole('button', { name: 'before' });
    before.focus();
    await userEvent.keyboard('{Control>}f{/Control}');
    await userEvent.type(input, 'deploy');
    expect(screen.getByRole('region', { name: 'Search results' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(input.value).toBe('');
    expect(screen.queryByRole('region')).toBeNull();
    expect(document.activeElement).toBe(before);
  });

  it('the close button closes it too', async () => {
    const { input } = setup(() => ok({ results: [], nextBefore: null }));
    await userEvent.type(input, 'x');
    fireEvent.click(screen.getByRole('button', { name: 'Close search' }));
    expect(input.value).toBe('');
  });

  it('More results asks for the page before the last hit and appends it', async () => {
    const { input, search } = setup(({ before }) =>
      before === undefined
        ? ok({ results: [hit({})], nextBefore: 41 })
        : ok({ results: [hit({ messageId: 'm0', seq: 0 })], nextBefore: null }),
    );
    await userEvent.type(input, 'deploy');
    const region = await screen.findByRole('region');
    await userEvent.click(await within(region).findByRole('button', { name: 'More results' }));
    await vi.waitFor(() => expect(hits().map((h) => h.getAttribute('data-message'))).toEqual(['m1', 'm0']));
    expect(search).toHaveBeenLastCalledWith({ query: 'deploy', limit: 20, before: 41 });
    expect(within(region).queryByRole('button', { name: 'More results' })).toBeNull();
  });
});
