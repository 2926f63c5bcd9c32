/** Public face of the hook bus. */
export { HookBus } from './hook-bus.js';
export * from './hook-events.js';
