/** Public face of the silence watchdog (watchdog spec part A). */
export { SilenceWatchdog, type Beacon, type BeaconKind, type SilenceWatchdogOptions } from './silence-watchdog.js';
export {
  BeaconRouter,
  beaconText,
  formatElapsed,
  type BeaconRouterOptions,
  type BeaconStatus,
} from './beacon-router.js';
