/** issue 23: `limits.get`, answered by each transport from the daemon's limits (main/daemon/api/limits-api.ts). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../../../shared/api/contract.js';
import { DaemonLimitsSchema } from '../../../../../shared/config.js';
import { handlersFor, limitsApi } from '../../../../../main/daemon/api/limits-api.js';
import { createFakeDaemon } from '../../../../fixtures/daemon-fake.js';

describe('limits.get', () => {
  it('answers the daemon’s limit, and the config schema’s default when the daemon names none', async () => {
    expect(await limitsApi({ maxMessageBytes: 102_400 })['limits.get']({})).toEqual({ maxMessageBytes: 102_400 });
    expect(await limitsApi(undefined)['limits.get']({})).toEqual({
      maxMessageBytes: DaemonLimitsSchema.parse({}).maxMessageBytes,
    });
    expect(DEFAULT_LIMITS.maxMessageBytes).toBe(DaemonLimitsSchema.parse({}).maxMessageBytes);
  });

  it('is added to the daemon’s handlers for that call only, and never replaces a handler the daemon has', async () => {
    const daemon = createFakeDaemon();
    const limits = limitsApi({ maxMessageBytes: 100 });
    expect(handlersFor('wakes.list', daemon.api, limits)).toBe(daemon.api);
    expect(await handlersFor('limits.get', daemon.api, limits)['limits.get']?.({})).toEqual({ maxMessageBytes: 100 });
    const own = { ...daemon.api, 'limits.get': async () => ({ maxMessageBytes: 7 }) };
    expect(handlersFor('limits.get', own, limits)).toBe(own);
  });
});
