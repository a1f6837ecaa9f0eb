import { invalid } from '@readlib/contracts';
import {
  type Database,
  ensureCategory,
  findCategoryById,
  listCategories,
  UNCATEGORISED_ID,
} from '@readlib/data';
import type { Kysely } from 'kysely';

/** `category` (an existing id) wins over `categoryText` (an existing or new name, decisions.md §4). */
export async function resolveCategory(
  db: Kysely<Database>,
  input: { category?: number | string | undefined; categoryText?: string | undefined },
): Promise<number | undefined> {
  if (input.category !== undefined && input.category !== '') {
    const id = Number(input.category);
    // ids are 32-bit integers; a larger number would reach PostgreSQL's int4 and fail there as a 500
    if (!Number.isInteger(id) || id < 0 || id > 2_147_483_647 || !(await findCategoryById(db, id)))
      throw invalid(`category ${input.category} does not exist`);
    return id;
  }
  if (input.categoryText === undefined) return undefined;
  const name = input.categoryText.trim();
  // spaces only is refused as "" is, not taken as not sent
  if (!name) throw invalid('categoryText must not be blank');
  // `literature` made a second category beside Literature, which the list filter by name then missed
  const existing = (await listCategories(db)).find((c) => fold(c.name) === fold(name));
  return existing?.id ?? (await ensureCategory(db, name)).id;
}

// "Computer Science", "computer-science" and "ComputerScience" name the same category
const fold = (s: string) => s.toLowerCase().replace(/[\s_\-&,.]+|\band\b/g, '');

/** The first EPUB subject naming a category (case and spacing ignored), else Uncategorised. */
export async function categoryFromSubjects(db: Kysely<Database>, subjects: string[]): Promise<number> {
  const byName = new Map((await listCategories(db)).map((c) => [fold(c.name), c.id]));
  for (const s of subjects) {
    const id = byName.get(fold(s));
    if (id !== undefined) return id;
  }
  return UNCATEGORISED_ID;
}
