/**
 * Electron composition root (issue: the Electron app). Placeholder until the app shell lands:
 * it only proves the main build and the zone rules.
 */
import { app } from 'electron';

void app.whenReady().then(() => {
  console.log('AgentTeam Desktop main process is not wired yet.');
});
