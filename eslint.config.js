// @ts-check
/**
 * Lint, and the runtime zones of DESIGN.md enforced per folder as allowlists (scripts/lint/zone-imports.js).
 * An import across zones fails lint (test/unit/lint/zones.test.ts proves it); so does an import up the
 * daemon's layers (scripts/lint/daemon-layers.js, test/unit/lint/daemon-layers.test.ts) and one into
 * generated code past its gate module (scripts/lint/generated-imports.js, test/unit/lint/generated-imports.test.ts).
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettierConfig from 'eslint-config-prettier';
import { daemonLayersRule } from './scripts/lint/daemon-layers.js';
import { generatedImportsRule } from './scripts/lint/generated-imports.js';
import { zoneImportsRule } from './scripts/lint/zone-imports.js';

/** STYLE.md habit 4: `main/app/ipc-gate.ts` is the only importer of `ipcMain`, from any entry point of electron. */
const ONLY_THE_GATE_MESSAGE =
  'only main/app/ipc-gate.ts may import ipcMain: add the call to shared/api/contract.ts and let the gate serve it (STYLE.md habit 4).';
const ONLY_THE_GATE = ['electron', 'electron/main'].map((name) => ({
  name,
  importNames: ['ipcMain'],
  message: ONLY_THE_GATE_MESSAGE,
}));

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.vite/**'] },
  { ignores: ['main/daemon/runtime/codex/generated/**'] }, // generated: scripts/generate-codex-protocol.mjs
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
    plugins: {
      agentteam: {
        rules: {
          'zone-imports': zoneImportsRule,
          'daemon-layers': daemonLayersRule,
          'generated-imports': generatedImportsRule,
        },
      },
    },
  },
  // DESIGN.md's zones as allowlists (scripts/lint/zone-imports.js): static, dynamic and require imports.
  { files: ['shared/**', 'main/**', 'preload/**', 'renderer/**'], rules: { 'agentteam/zone-imports': 'error' } },
  // STYLE.md habit 16: inside the daemon, imports point down its layers (scripts/lint/daemon-layers.js).
  { files: ['main/daemon/**'], rules: { 'agentteam/daemon-layers': 'error' } },
  // STYLE.md habit 18: generated code only through its gate module, from anywhere (tests too).
  { rules: { 'agentteam/generated-imports': 'error' } },
  {
    files: ['main/app/**', 'main/*.ts'],
    ignores: ['main/app/ipc-gate.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ONLY_THE_GATE }] },
  },
);
