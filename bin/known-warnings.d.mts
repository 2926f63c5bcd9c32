/** Types of known-warnings.mjs (the bin is plain JavaScript: it must run before anything is built). */
export declare const KNOWN_WARNINGS: ReadonlySet<string>;
export declare function quietKnownWarnings(proc?: NodeJS.Process): void;
