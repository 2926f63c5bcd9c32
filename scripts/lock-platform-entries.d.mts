/** Types of scripts/lock-platform-entries.mjs for the tests that import it. */
interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  inBundle?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}
interface Lock {
  packages: Record<string, LockEntry>;
  [key: string]: unknown;
}
export function addPlatformEntries(lock: Lock): { added: string[]; unknown: string[] };
export function entriesWithoutIntegrity(
  lock: Lock,
): { key: string; name: string; version: string | undefined; platform: boolean }[];
export function sha512Integrity(bytes: Uint8Array): string;
export function fillIntegrity(lock: Lock, registry: string, fetchImpl?: typeof fetch): Promise<string[]>;
