/**
 * issue 14: the OS folder picker for an agent's workspace. A call of the shared contract
 * (`desktop.chooseFolder`) that only the desktop app answers: it reaches this handler through the
 * IPC gate like every other call (sender checked: our main frame, our origin, our window; request
 * parsed), and the main process opens the picker — the renderer never touches the file system.
 * The browser served by `agentteam serve` has no picker: the daemon answers `unavailable` and the
 * UI offers only the path field there. The chosen path is then saved with `agents.update`, which
 * validates it like any typed path.
 */
import type { BrowserWindow, OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import type { ApiHandlers } from '../../shared/api/contract.js';

/** Electron's `dialog.showOpenDialog`, as a port (tests pass a fake; no Electron runs there). */
export interface FolderDialogPort {
  showOpenDialog(parent: BrowserWindow | null, options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
}

export function folderPickerHandlers(
  dialog: FolderDialogPort,
  parent: () => BrowserWindow | null,
): Pick<ApiHandlers, 'desktop.chooseFolder'> {
  return {
    'desktop.chooseFolder': async ({ defaultPath }) => {
      const result = await dialog.showOpenDialog(parent(), {
        properties: ['openDirectory', 'createDirectory'],
        ...(defaultPath === undefined ? {} : { defaultPath }),
      });
      return { path: result.canceled ? null : (result.filePaths[0] ?? null) };
    },
  };
}
