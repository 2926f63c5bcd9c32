/** Types of electron-binary.mjs (used by the Electron Playwright suite). */
export function electronBinary(root: string): string | null;
