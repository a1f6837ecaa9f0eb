/** Values the build puts in the bundle (vite.config.ts `define`, and vitest.config.ts for the tests). */
declare global {
  /** maxLength of each string field of the contracts' BookCreateBody (contract-limits.ts, at build time) */
  const __BOOK_FIELD_LIMITS__: Record<string, number>;
}

export {};
