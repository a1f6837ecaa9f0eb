export interface Paging {
  offset: number;
  limit: number;
}

/** page and pageSize are validated (positive, pageSize ≤ 100) by the contract before they get here. */
export function paging(page = 1, pageSize = 20): Paging {
  return { offset: (page - 1) * pageSize, limit: pageSize };
}
