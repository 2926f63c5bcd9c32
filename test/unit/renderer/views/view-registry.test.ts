/**
 * issue 39 "Plug-ins": a view of the shell is one folder of renderer/src/views/ and one line of
 * `PAGES` (views/view-registry.tsx); the sidebar and the shell iterate the registry. Read as text
 * (the renderer's modules need a DOM): each folder exports one entry whose `kind` is its name,
 * `PAGES` lists every folder's entry once, and nothing outside views/ reaches a page's folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const VIEWS = 'renderer/src/views';
const folders = readdirSync(VIEWS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** The entry a folder exports: `export const X_PAGE = { kind: '…'` in one of its files. */
function entryOf(folder: string): { name: string; kind: string } | null {
  for (const file of readdirSync(join(VIEWS, folder))) {
    const m = /export const (\w+_PAGE) = \{\s*kind: '([^']+)'/.exec(readFileSync(join(VIEWS, folder, file), 'utf8'));
    if (m) return { name: m[1] as string, kind: m[2] as string };
  }
  return null;
}

const registry = readFileSync(join(VIEWS, 'view-registry.tsx'), 'utf8');

describe('the view registry (issue 39)', () => {
  it('has one page folder per page; each exports its entry, named by the folder', () => {
    expect(folders).toEqual(['agents', 'settings', 'team', 'usage']);
    for (const folder of folders) expect(entryOf(folder)?.kind, folder).toBe(folder);
  });

  it("lists every folder's entry once in PAGES, on one line, and nothing else", () => {
    const line = /export const PAGES = \[([^\]]*)\]/.exec(registry)?.[1] ?? '';
    const listed = line.split(',').map((s) => s.trim());
    expect([...listed].sort()).toEqual(folders.map((f) => entryOf(f)?.name).sort());
    // Each entry is imported from its own folder.
    for (const folder of folders)
      expect(registry).toMatch(new RegExp(`import \\{ ${entryOf(folder)?.name} \\} from './${folder}/`));
  });

  it('the sidebar and the shell go through the registry: no file outside views/ imports a page folder', () => {
    const outside = readdirSync('renderer/src', { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('views/'))
      .filter((f) =>
        folders.some((folder) =>
          new RegExp(`from '[./]*views/${folder}/`).test(readFileSync(join('renderer/src', f), 'utf8')),
        ),
      );
    expect(outside).toEqual([]);
    for (const file of ['components/sidebar.tsx', 'app.tsx'])
      expect(readFileSync(join('renderer/src', file), 'utf8')).toMatch(/views\/view-registry\.js/);
  });
});
