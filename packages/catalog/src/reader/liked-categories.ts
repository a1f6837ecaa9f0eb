/**
 * The rule of a reader's liked categories, once: the `limit` categories holding most of the books they
 * engaged with (a book engaged with twice counts twice), ties by category id; books whose category is
 * unknown (deleted since) are left out.
 */
export function topCategories(
  bookIds: readonly number[],
  categoryOf: (bookId: number) => number | undefined,
  limit: number,
): number[] {
  const counts = new Map<number, number>();
  for (const id of bookIds) {
    const c = categoryOf(id);
    if (c !== undefined) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([c]) => c);
}
