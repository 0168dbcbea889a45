/*
 * Page-numbered lists (/api/registrar-actions, /api/name-sales): the limit rule every list shares and the page
 * arithmetic, kept free of the database so they are unit-tested.
 */

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export interface PageContext {
  page: number;
  limit: number;
  totalRecords: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

/** Pages of `limit` records, 1-based; an empty result still has one (empty) page. */
export function pageContext(page: number, limit: number, totalRecords: number): PageContext {
  const totalPages = Math.max(1, Math.ceil(totalRecords / limit));
  return { page, limit, totalRecords, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}
