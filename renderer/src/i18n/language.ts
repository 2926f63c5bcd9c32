/** The UI languages (UI.md "Chips and copy"): every copy table has each of them. */
export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
