/** issue 17: the delivery channels' settings and the app's language, written into agentteam.json by the daemon. */
import { SettingsView } from '../../components/settings-view.js';
import { useAppState } from '../../state/app-state-context.js';
import { useConversations } from '../../state/conversation-store.js';
import { useValue } from '../../state/value-store.js';
import type { PageEntry, PageProps } from '../page.js';

function SettingsPage({ language }: PageProps) {
  const { state } = useAppState();
  const settings = useValue(state.settings);
  const conversations = useConversations(state.conversations);
  if (settings === null) return null;
  return (
    <SettingsView
      settings={settings}
      language={language}
      channels={state.api.channels}
      conversations={conversations}
      onSave={(update) => state.saveSettings(update)}
    />
  );
}

export const SETTINGS_PAGE = {
  kind: 'settings',
  label: 'sidebar.settings',
  place: 'foot',
  className: 'settings-link',
  Page: SettingsPage,
} as const satisfies PageEntry;
