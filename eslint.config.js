// @ts-check
/**
 * Lint, and the runtime zones of DESIGN.md enforced per folder with `no-restricted-imports`.
 * An import across zones fails lint (test/unit/lint/zones.test.ts proves it).
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import prettierConfig from 'eslint-config-prettier';

const nodeBuiltins = [...new Set(builtinModules.map((m) => m.replace(/^node:/, '')))];
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Bare or `node:` Node built-ins. */
const NODE = `^(node:.*|(${nodeBuiltins.map(esc).join('|')})(/.*)?)$`;
/** A relative import that climbs into one of the named top-level folders (or main's sub-zones). */
const into = (...dirs) => `^(\\.\\./)+(${dirs.map(esc).join('|')})(/|$)`;

const zone = (message, ...regexes) => ({
  'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }],
});

/** STYLE.md habit 4: `main/app/ipc-gate.ts` is the only importer of `ipcMain`. */
const ONLY_THE_GATE = {
  name: 'electron',
  importNames: ['ipcMain'],
  message:
    'only main/app/ipc-gate.ts may import ipcMain: add the call to shared/api/contract.ts and let the gate serve it (STYLE.md habit 4).',
};
const appZoneMessage =
  'main/app/ is the Electron main process: it may use electron, electron-store, electron-log, the daemon and shared, never React, preload, renderer or serve (DESIGN.md zones).';
const appZonePatterns = ['^(react|react-dom|conf|ws)(/.*)?$', into('preload', 'renderer', 'serve'), into('main/serve')];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.vite/**'] },
  { ignores: ['main/daemon/runtime/codex/protocol/**'] }, // generated: scripts/generate-codex-protocol.mjs
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Formatting is Prettier's (printWidth 120, `prettier --check` in `npm run lint`): no ESLint style rule may fight it.
  prettierConfig,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    files: ['shared/**'],
    rules: zone(
      'shared/ is "std": it may import only zod, rxjs and other files in shared/ (DESIGN.md zones).',
      '^(?!(zod|rxjs)(/|$)|\\.{1,2}/).*',
      into('main', 'preload', 'renderer', 'test', 'bench', 'scripts'),
    ),
  },
  {
    files: ['main/daemon/**'],
    rules: zone(
      'main/daemon/ runs in plain Node and Electron: never electron, electron-store, electron-log, React, serve or app code (DESIGN.md zones).',
      '^(electron|electron-store|electron-log|conf|react|react-dom|ws)(/.*)?$',
      into('app', 'serve', 'preload', 'renderer'),
      into('main/app', 'main/serve', 'main/index.js'),
    ),
  },
  {
    files: ['main/serve/**'],
    rules: zone(
      'main/serve/ is headless Node 24: no electron, electron-store, electron-log, React or app code (DESIGN.md zones).',
      '^(electron|electron-store|electron-log|react|react-dom)(/.*)?$',
      into('app', 'preload', 'renderer'),
      into('main/app', 'main/index.js'),
    ),
  },
  {
    files: ['main/app/**', 'main/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [ONLY_THE_GATE], patterns: appZonePatterns.map((regex) => ({ regex, message: appZoneMessage })) },
      ],
    },
  },
  {
    files: ['main/app/ipc-gate.ts'],
    rules: zone(appZoneMessage, ...appZonePatterns),
  },
  {
    files: ['preload/**'],
    rules: zone(
      'preload/ is a sandboxed Electron preload: only electron (contextBridge, ipcRenderer) and shared (DESIGN.md zones).',
      NODE,
      '^(?!electron$|\\.{1,2}/).*',
      into('main', 'renderer', 'test', 'bench', 'scripts'),
    ),
  },
  {
    files: ['renderer/**'],
    rules: zone(
      'renderer/ runs in the browser: never electron or node:* (DESIGN.md zones), only shared and React.',
      NODE,
      '^(electron|electron-store|electron-log|conf|ws|prom-client|@modelcontextprotocol/.*)(/.*)?$',
      into('main', 'preload', 'test', 'bench', 'scripts'),
    ),
  },
);
