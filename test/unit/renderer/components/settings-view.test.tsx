// @vitest-environment happy-dom
/** Settings: edits stay local and marked until one Save; inline validation with the schema's bounds; where values come from. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfigStatus, Settings } from '../../../../shared/api/contract.js';
import { ChannelSettingsSchema } from '../../../../shared/config.js';
import {
  SettingsView,
  type SettingsUpdate,
  type SettingsViewProps,
} from '../../../../renderer/src/components/settings-view.js';
import { scriptedClientApi } from '../../../fixtures/scripted-client-api.js';
import { telegramRequests, telegramScript } from '../../../fixtures/telegram-status.js';

afterEach(cleanup);

const defaults = ChannelSettingsSchema.parse({});
const config = (over: Partial<ConfigStatus> = {}): ConfigStatus => ({
  file: '/data/agentteam.json',
  error: null,
  origins: { local: { 'silenceWatchdog.thresholdSeconds': 'file', 'silenceWatchdog.maxBeacons': 'default' } },
  restartNeeded: [],
  notices: [],
  ...over,
});
const settingsOf = (over: Partial<Settings> = {}): Settings => ({
  language: 'en',
  channels: {
    local: { ...defaults, silenceWatchdog: { ...defaults.silenceWatchdog, thresholdSeconds: 30 } },
    telegram: { ...defaults, responseDelivery: { ...defaults.responseDelivery, retryCount: 4 } },
  },
  config: config(),
  ...over,
});

function setup(over: Partial<SettingsViewProps> = {}) {
  const onSave = vi.fn<(update: SettingsUpdate) => Promise<string | null>>(async () => null);
  const props: SettingsViewProps = { settings: settingsOf(), language: 'en', onSave, ...over };
  const view = render(<SettingsView {...props} />);
  return { props, view, onSave: props.onSave as typeof onSave };
}
const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const threshold = () => field('Silence before a beacon (seconds)');
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const status = () => document.querySelector('.settings-status')?.textContent;

describe('SettingsView', () => {
  it("shows the selected delivery channel's values and where each comes from", () => {
    setup();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Settings');
    expect((screen.getByRole('combobox', { name: 'Delivery channel' }) as HTMLSelectElement).value).toBe('local');
    expect(threshold().value).toBe('30');
    expect(field('Beacons per turn before one escalation').value).toBe('5');
    expect((screen.getByRole('checkbox', { name: 'Track delivery of every reply' }) as HTMLInputElement).checked).toBe(
      true,
    );
    const row = document.querySelector('[data-field="silenceWatchdog.thresholdSeconds"]') as HTMLElement;
    expect(row.querySelector('.sv-origin-file')?.textContent).toBe('Value from: agentteam.json');
    expect(document.querySelector('[data-field="silenceWatchdog.maxBeacons"] .sv-origin-default')).toBeTruthy();
    expect(screen.getByText('/data/agentteam.json').tagName).toBe('CODE');
    expect(screen.queryByRole('checkbox', { name: /visible/i })).toBeNull();
  });

  it('switches delivery channel', async () => {
    setup();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Delivery channel' }), 'telegram');
    expect(field('Retries when a reply provably never left').value).toBe('4');
    expect(threshold().value).toBe('45');
    expect(screen.getByRole('option', { name: 'Local (this app)' })).toBeTruthy();
  });

  it('marks an edit and its page as unsaved until Discard', async () => {
    setup();
    expect(button('Save').disabled).toBe(true);
    expect(button('Discard changes').disabled).toBe(true);
    await userEvent.clear(threshold());
    await userEvent.type(threshold(), '60');
    expect(document.querySelector('[data-field="silenceWatchdog.thresholdSeconds"]')?.getAttribute('data-dirty')).toBe(
      'true',
    );
    expect(status()).toBe('Unsaved changes');
    await userEvent.click(button('Discard changes'));
    expect(threshold().value).toBe('30');
    expect(button('Save').disabled).toBe(true);
  });

  it("checks a number inline with the schema's bounds and saves nothing while one is wrong", async () => {
    const { onSave } = setup();
    await userEvent.clear(threshold());
    await userEvent.type(threshold(), '0');
    const error = screen.getByText('Enter a number above 0, at most 86400.');
    expect(threshold().getAttribute('aria-invalid')).toBe('true');
    expect(threshold().getAttribute('aria-describedby')?.split(' ')).toContain(error.closest('p')?.id);
    const beacons = field('Beacons per turn before one escalation');
    await userEvent.clear(beacons);
    await userEvent.type(beacons, '2.5');
    expect(screen.getByText('Enter a whole number.')).toBeTruthy();
    await userEvent.clear(beacons);
    await userEvent.type(beacons, '101');
    expect(screen.getByText('Enter a value from 0 to 100.')).toBeTruthy();
    await userEvent.click(button('Save'));
    expect(onSave).not.toHaveBeenCalled();
    expect(status()).toBe('Not saved: fix the highlighted fields first.');
    expect(document.activeElement).toBe(threshold());
  });

  it("saves a channel's changed values as numbers with Enter, then says it went to agentteam.json", async () => {
    const { onSave } = setup();
    await userEvent.clear(threshold());
    await userEvent.type(threshold(), '12.5');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Alert when a reply is not delivered' }));
    await userEvent.type(threshold(), '{Enter}');
    await vi.waitFor(() => expect(status()).toBe('Saved to agentteam.json'));
    const local = settingsOf().channels.local!;
    expect(onSave).toHaveBeenCalledExactlyOnceWith({
      channel: 'local',
      settings: {
        silenceWatchdog: { ...local.silenceWatchdog, thresholdSeconds: 12.5 },
        responseDelivery: { ...local.responseDelivery, alertOnFailure: false },
      },
    });
  });

  it('saves the language on its own', async () => {
    const { onSave } = setup();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'zh-CN');
    expect(screen.getByRole('option', { name: '简体中文' })).toBeTruthy();
    await userEvent.click(button('Save'));
    await vi.waitFor(() => expect(status()).toBe('Saved'));
    expect(onSave).toHaveBeenCalledExactlyOnceWith({ language: 'zh-CN' });
  });

  it("keeps the edits and shows the daemon's message when saving fails", async () => {
    const onSave = vi.fn(async () => 'agentteam.json is read-only');
    setup({ onSave });
    await userEvent.clear(threshold());
    await userEvent.type(threshold(), '50');
    await userEvent.click(button('Save'));
    await vi.waitFor(() => expect(status()).toBe('Not saved: agentteam.json is read-only'));
    expect(threshold().value).toBe('50');
  });

  it("shows the config file's error as text, and what needs a restart", () => {
    setup({
      settings: settingsOf({
        config: config({
          error: { code: 'config_invalid', message: '<b>agents[0].id</b>: expected', problems: [], line: 3, column: 1 },
          restartNeeded: ['agents', 'limits'],
        }),
      }),
    });
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('data-config-error')).toBe('config_invalid');
    expect(alert.querySelector('pre')?.textContent).toBe('<b>agents[0].id</b>: expected');
    expect(alert.querySelector('b')).toBeNull();
    expect(document.querySelector('[data-restart-needed]')?.textContent).toBe(
      '↻ Changes to agents, limits in agentteam.json apply after AgentTeam restarts.',
    );
  });

  it('lists settings moved from an older version until dismissed', async () => {
    setup({
      settings: settingsOf({
        config: config({
          notices: [
            { kind: 'migrated', path: 'channels.local.silenceWatchdog.maxBeacons', value: 3 },
            { kind: 'ignored', path: 'channels.local.responseDelivery.retryCount', value: 2, fileValue: 1 },
          ],
        }),
      }),
    });
    const notices = document.querySelector('[data-legacy-notices]') as HTMLElement;
    expect([...notices.querySelectorAll('li')].map((l) => l.textContent)).toEqual([
      'channels.local.silenceWatchdog.maxBeacons = 3: moved into agentteam.json',
      'channels.local.responseDelivery.retryCount = 2: not used, agentteam.json sets 1',
    ]);
    await userEvent.click(within(notices).getByRole('button', { name: 'Dismiss' }));
    expect(document.querySelector('[data-legacy-notices]')).toBeNull();
  });

  it('speaks 简体中文, joining restart sections with 、', () => {
    setup({ language: 'zh-CN', settings: settingsOf({ config: config({ restartNeeded: ['agents', 'limits'] }) }) });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('设置');
    expect(screen.getByRole('combobox', { name: '投递渠道' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '静默多久后发送信标（秒）' })).toBeTruthy();
    expect(document.querySelector('[data-restart-needed]')?.textContent).toBe(
      '↻ agentteam.json 中对智能体、限制的更改将在 AgentTeam 重启后生效。',
    );
  });

  it("shows the Telegram section when given the channel's calls", async () => {
    const fake = scriptedClientApi(
      telegramScript({ status: () => ({ ok: false, code: 'unavailable', message: 'down' }) }),
    );
    setup({ channels: fake.api.channels });
    expect(screen.getByRole('heading', { name: 'Telegram' })).toBeTruthy();
    await vi.waitFor(() => expect(telegramRequests(fake, 'status')).toEqual([{}]));
    await vi.waitFor(() => expect(document.querySelector('.telegram-status')?.textContent).toBe('Not saved: down'));
  });
});
