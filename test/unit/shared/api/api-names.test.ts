import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  API_CALL_NAMES,
  API_EVENT_NAMES,
  channelOf,
  isApiCallName,
  isApiEventName,
} from '../../../../shared/api/api-names.js';
import { apiCalls, apiEvents } from '../../../../shared/api/contract.js';

describe('contract names without zod (shared/api/api-names.ts)', () => {
  it('are exactly the calls and events of the contract, in its order', () => {
    // contract.ts also checks this at type level (`satisfies Record<ApiCallName, …>`).
    expect(Object.keys(apiCalls)).toEqual([...API_CALL_NAMES]);
    expect(Object.keys(apiEvents)).toEqual([...API_EVENT_NAMES]);
  });

  it('recognise a name from the wire, never a prototype key', () => {
    expect(isApiCallName('wakes.list')).toBe(true);
    expect(isApiEventName('wake.status')).toBe(true);
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'wakes.delete', 'wake.status'])
      expect(isApiCallName(name), name).toBe(false);
    expect(isApiEventName('wakes.list')).toBe(false);
    expect(channelOf('wakes.list')).toBe('agentteam:wakes.list');
  });

  it('are all the preload needs: its modules import no zod and no contract value (types only)', () => {
    const files = ['preload/index.ts', 'preload/client-api.ts', 'shared/api/client-api.ts', 'shared/api/api-names.ts'];
    for (const file of files) {
      const source = readFileSync(new URL(`../../../../${file}`, import.meta.url), 'utf8');
      const valueImports = [...source.matchAll(/^import (?!type )[^;]*? from '([^']+)';/gms)].map((m) => m[1]);
      expect(
        valueImports.filter((from) => /zod|contract\.js|config\.js|ws-protocol\.js/.test(from ?? '')),
        file,
      ).toEqual([]);
    }
  });
});
