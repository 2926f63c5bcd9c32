// @ts-check
/**
 * Every way a module can be loaded, for the import rules (zone-imports.js, daemon-layers.js,
 * generated-imports.js): `import` (`import type` too), `export … from`, `import()`, `require()`,
 * `import x = require()` and the type-position `import('…').T`. Each rule gets the string
 * specifier, or hears that it was computed (a non-literal cannot be checked).
 *
 * A relative specifier is resolved by path arithmetic alone (never by a resolver that could skip
 * what it cannot find: a `.js` specifier of a `.ts` file, a file not written yet).
 */
import { dirname, relative, resolve, sep } from 'node:path';

/** The linted file's path relative to the repo root (ESLint's cwd), `/`-separated. */
export function repoPathOf(context) {
  return relative(context.cwd, context.filename).split(sep).join('/');
}

/** The repo-relative path a relative specifier of the file `rel` reaches, or null for a package specifier. */
export function reachedPath(rel, spec) {
  if (!spec.startsWith('.') && !spec.startsWith('/')) return null;
  return relative('.', resolve(dirname(rel), spec))
    .split(sep)
    .join('/');
}

/**
 * ESLint visitors calling `onSpecifier(node, spec)` for each module the file loads, and
 * `onComputed(node)` for a dynamic import or require whose specifier is not a string literal.
 * @param {(node: any, spec: string) => void} onSpecifier
 * @param {(node: any) => void} [onComputed]
 * @returns {import('eslint').Rule.RuleListener}
 */
export function moduleSpecifierVisitors(onSpecifier, onComputed = () => {}) {
  /** @param {any} node @param {any} source */
  const check = (node, source) => {
    if (source === null || source === undefined) return;
    if (source.type === 'Literal' && typeof source.value === 'string') return onSpecifier(node, source.value);
    if (source.type === 'TemplateLiteral' && source.expressions.length === 0)
      return onSpecifier(node, source.quasis[0]?.value.cooked ?? '');
    onComputed(node);
  };
  return {
    ImportDeclaration: (node) => check(node, node.source),
    ExportAllDeclaration: (node) => check(node, node.source),
    ExportNamedDeclaration: (node) => check(node, node.source),
    ImportExpression: (node) => check(node, node.source),
    CallExpression: (node) => {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length > 0) {
        check(node, node.arguments[0]);
      }
    },
    // TypeScript only: `import x = require('…')` and `type T = import('…').T`.
    /** @param {any} node */
    TSExternalModuleReference: (node) => check(node, node.expression),
    /** @param {any} node */
    TSImportType: (node) => check(node, node.source ?? node.argument?.literal),
  };
}
