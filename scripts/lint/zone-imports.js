// @ts-check
/**
 * DESIGN.md's runtime zones as ALLOWLISTS: for each folder, the packages and the folders its files may
 * import, checked on every way a module can be loaded — `import`, `export … from`, `import()` and
 * `require()`. A dynamic import whose specifier is not a string literal cannot be checked, so it is an
 * error in a zoned folder.
 *
 * Why a path allowlist rather than `no-restricted-imports` patterns: patterns list what is forbidden
 * and miss what nobody thought of (`../index.js` from main/daemon is the Electron root;
 * `await import('electron')`; `@electron/remote`). Why not `import-x/no-restricted-paths`: it resolves
 * each specifier first and silently skips one it cannot resolve (a `.js` specifier of a `.ts` file
 * without a TypeScript resolver, a file not written yet). Here a relative specifier is resolved by
 * path arithmetic alone (module-specifiers.js), so nothing is skipped. Inside main/daemon/, the
 * order of the daemon's rooms is daemon-layers.js; the gate of generated code is generated-imports.js.
 */
import { builtinModules } from 'node:module';
import { moduleSpecifierVisitors, reachedPath, repoPathOf } from './module-specifiers.js';

const NODE_BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));

/**
 * @typedef {{ name: string, files: (rel: string) => boolean, packages: RegExp, folders: string[], why: string }} Zone
 */

/** A package specifier `name` or `name/sub/path` (scoped too) → its package name. */
function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isNodeBuiltin(spec) {
  return spec.startsWith('node:') || NODE_BUILTINS.has(packageName(spec));
}

/** `rel` is the folder itself or anything below it. */
function inFolder(rel, folder) {
  return rel === folder || rel.startsWith(`${folder}/`);
}

/**
 * The zones, most specific first. `packages` matches the package name (never a path); Node built-ins are
 * allowed only where `node` is true.
 * @type {Array<Zone & { node: boolean }>}
 */
export const ZONES = [
  {
    name: 'shared',
    files: (rel) => rel.startsWith('shared/'),
    node: false,
    packages: /^(zod|rxjs)$/,
    folders: ['shared'],
    why: 'shared/ is "std": only zod, rxjs and shared/ itself',
  },
  {
    name: 'main/daemon',
    files: (rel) => rel.startsWith('main/daemon/'),
    node: true,
    packages:
      /^(zod|rxjs|@modelcontextprotocol\/sdk|prom-client|eventsource-parser|grammy|tree-kill|@agentclientprotocol\/sdk|jsonc-parser)$/,
    folders: ['main/daemon', 'shared'],
    why: 'main/daemon/ runs in plain Node and in Electron main: Node built-ins, zod, rxjs, the MCP SDK, prom-client, eventsource-parser, grammy (Telegram channel), tree-kill, the ACP SDK (issue 28), jsonc-parser (agentteam.json, issue 39), main/daemon/ and shared/ — never electron, serve, app or the Electron root',
  },
  {
    name: 'main/serve',
    files: (rel) => rel.startsWith('main/serve/'),
    node: true,
    packages: /^(zod|rxjs|ws)$/,
    folders: ['main/serve', 'main/daemon', 'shared'],
    why: 'main/serve/ is headless Node 24: Node built-ins, zod, rxjs, ws, main/daemon/ and shared/ — never electron or app code',
  },
  {
    name: 'main/app',
    files: (rel) => rel.startsWith('main/app/') || /^main\/[^/]+\.ts$/.test(rel),
    node: true,
    packages: /^(electron|electron-store|electron-log|zod|rxjs)$/,
    folders: ['main/app', 'main/daemon', 'shared'],
    why: 'main/app/ and main/*.ts are the Electron main process: electron, electron-store, electron-log, zod, rxjs, main/app/, main/daemon/ and shared/ — never serve, preload or renderer',
  },
  {
    name: 'preload',
    files: (rel) => rel.startsWith('preload/'),
    node: false,
    packages: /^electron$/,
    folders: ['preload', 'shared'],
    why: 'preload/ is a sandboxed Electron preload: only electron (contextBridge, ipcRenderer), preload/ and shared/',
  },
  {
    name: 'renderer',
    files: (rel) => rel.startsWith('renderer/'),
    node: false,
    packages: /^(react|react-dom|@tanstack\/react-virtual|zod|rxjs|react-diff-view|recharts)$/,
    folders: ['renderer', 'shared'],
    why: 'renderer/ runs in the browser: React, @tanstack/react-virtual, zod, rxjs, react-diff-view (issue 26 review pane), recharts (issue 27 Usage view), renderer/ and shared/ — never electron or node:*',
  },
];

/** The zone of a file (path relative to the repo root, `/`-separated), or undefined. */
export function zoneOf(rel) {
  return ZONES.find((z) => z.files(rel));
}

/**
 * Why `spec` imported from the file `rel` leaves its zone, or null when allowed.
 * @param {Zone & { node: boolean }} zone
 */
export function violation(zone, rel, spec) {
  const target = reachedPath(rel, spec);
  if (target !== null) {
    if (zone.folders.some((f) => inFolder(target, f))) return null;
    return `'${spec}' reaches ${target}`;
  }
  if (isNodeBuiltin(spec)) return zone.node ? null : `'${spec}' is a Node built-in`;
  if (zone.packages.test(packageName(spec))) return null;
  return `'${spec}' is not an allowed package`;
}

/** @type {import('eslint').Rule.RuleModule} */
export const zoneImportsRule = {
  meta: {
    type: 'problem',
    docs: { description: "DESIGN.md's runtime zones as allowlists, for static, dynamic and require imports" },
    schema: [],
  },
  create(context) {
    const rel = repoPathOf(context);
    const zone = zoneOf(rel);
    if (zone === undefined) return {};
    return moduleSpecifierVisitors(
      (node, spec) => {
        const why = violation(zone, rel, spec);
        if (why !== null) context.report({ node, message: `${why}. ${zone.why} (DESIGN.md zones).` });
      },
      (node) =>
        context.report({
          node,
          message: `${zone.why} (DESIGN.md zones). A computed module specifier cannot be checked: use a string literal.`,
        }),
    );
  },
};
