// @ts-check
/**
 * Generated code is reached through one module (STYLE.md habit 18). Each generated folder names
 * its gate: only the gate, the gate's own tests and the generated files themselves may import
 * from the folder; everything else imports the gate. Checked on every way a module is loaded
 * (module-specifiers.js), in every linted file, tests included.
 */
import { moduleSpecifierVisitors, reachedPath, repoPathOf } from './module-specifiers.js';

/**
 * @typedef {{ folder: string, gate: string, gateTests: RegExp, why: string }} GeneratedFolder
 * @type {GeneratedFolder[]}
 */
export const GENERATED_FOLDERS = [
  {
    folder: 'main/daemon/runtime/codex/generated',
    gate: 'main/daemon/runtime/codex/codex-protocol.ts',
    gateTests: /^test\/unit\/main\/daemon\/runtime\/codex\/codex-protocol(-[\w-]+)?\.test\.ts$/,
    why: '`codex app-server generate-ts` output (scripts/generate-codex-protocol.mjs)',
  },
];

const inFolder = (path, folder) => path === folder || path.startsWith(`${folder}/`);

/** Why the file `rel` may not import `spec`, or null when it does not reach a generated folder or may. */
export function generatedViolation(rel, spec) {
  const target = reachedPath(rel, spec);
  if (target === null) return null;
  const g = GENERATED_FOLDERS.find((f) => inFolder(target, f.folder));
  if (g === undefined || rel === g.gate || g.gateTests.test(rel) || inFolder(rel, g.folder)) return null;
  return `'${spec}' reaches ${g.folder}/, ${g.why}: import it through ${g.gate}, its one gate`;
}

/** @type {import('eslint').Rule.RuleModule} */
export const generatedImportsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Generated code is imported only through its one gate module' },
    schema: [],
  },
  create(context) {
    const rel = repoPathOf(context);
    return moduleSpecifierVisitors((node, spec) => {
      const why = generatedViolation(rel, spec);
      if (why !== null) context.report({ node, message: `${why} (STYLE.md habit 18).` });
    });
  },
};
