/**
 * Loads electron-builder.yml the way electron-builder does (its own `getConfig`) and validates it
 * with electron-builder's own schema (`validateConfiguration`), offline. Shared by
 * scripts/check-package.mjs and the config test.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Resolves electron-builder's internals from the project (not from wherever this file is imported). */
function builderLib(root) {
  const require = createRequire(join(root, 'package.json'));
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config');
  const { DebugLogger } = require('builder-util');
  return { getConfig, validateConfiguration, DebugLogger };
}

/** The effective configuration of `<root>/electron-builder.yml`. */
export async function load(root) {
  const { getConfig } = builderLib(root);
  return getConfig(root, join(root, 'electron-builder.yml'), null);
}

/** Throws electron-builder's own error when `config` does not match its schema. */
export async function validate(root, config) {
  const { validateConfiguration, DebugLogger } = builderLib(root);
  await validateConfiguration(config, new DebugLogger(false));
}
