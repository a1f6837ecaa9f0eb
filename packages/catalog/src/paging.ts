import { PAGE_SIZE_MAX } from '@readlib/contracts';

export interface Paging {
  offset: number;
  limit: number;
}

/**
 * page and pageSize are validated (positive integers) by the contract before they get here; a pageSize
 * over the cap is served as the cap (decisions.md §3), and `limit` is the size actually served.
 */
export function paging(page = 1, pageSize = 20): Paging {
  const limit = Math.min(pageSize, PAGE_SIZE_MAX);
  return { offset: (page - 1) * limit, limit };
}
