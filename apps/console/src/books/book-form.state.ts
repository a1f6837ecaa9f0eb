import type { AdminBookDetail, BookCreateBody, BookUpdateBody } from '@readlib/sdk';

type Writable = keyof BookUpdateBody & keyof AdminBookDetail;

/** The book's own details, as the form shows them first. */
export const DETAIL_FIELDS = [
  'title',
  'author',
  'publisher',
  'language',
] as const satisfies readonly Writable[];

/** Where the book's files are, shown apart from its details. */
export const FILE_FIELDS = [
  'rootFile',
  'cover',
  'coverPath',
  'filePath',
  'unzipPath',
  'originalName',
] as const satisfies readonly Writable[];

/**
 * Paths of the book's stored files that the service wrote at upload: read-only in the form unless the
 * operator asks for them ("edit advanced fields"), since a wrong one makes the book unreadable.
 */
export const ADVANCED_FIELDS = [
  'rootFile',
  'coverPath',
  'filePath',
  'unzipPath',
] as const satisfies readonly (typeof FILE_FIELDS)[number][];

/** The text fields `POST /book/update` and `/book/create` take, in the order the form shows them. */
export const TEXT_FIELDS = [...DETAIL_FIELDS, ...FILE_FIELDS];
export type TextField = (typeof TEXT_FIELDS)[number];

export interface BookFormState {
  text: Record<TextField, string>;
  /** an existing category by id, or a new one by name (created by the service) */
  categoryMode: 'existing' | 'new';
  categoryId: number | undefined;
  newCategory: string;
}

/** The form of a book as `GET /book/get` or `POST /book/upload` answered it. */
export function formOf(book: AdminBookDetail): BookFormState {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, book[f]])) as Record<TextField, string>;
  return { text, categoryMode: 'existing', categoryId: book.category, newCategory: '' };
}

const categoryPart = (form: BookFormState): Pick<BookUpdateBody, 'category' | 'categoryText'> => {
  if (form.categoryMode === 'new') {
    const name = form.newCategory.trim();
    return name ? { categoryText: name } : {};
  }
  return form.categoryId === undefined ? {} : { category: form.categoryId };
};

/** `POST /book/create`: the upload's answer as edited, empty fields left out. */
export function createBody(fileName: string, form: BookFormState): BookCreateBody {
  const body: BookCreateBody = { fileName, ...categoryPart(form) };
  for (const field of TEXT_FIELDS) {
    const value = form.text[field].trim();
    if (value) body[field] = value;
  }
  return body;
}

/** `POST /book/update` with the fields that changed only (the service keeps the others); undefined when none did. */
export function updateBody(
  fileName: string,
  before: BookFormState,
  after: BookFormState,
): BookUpdateBody | undefined {
  const body: BookUpdateBody = { fileName };
  for (const field of TEXT_FIELDS) {
    if (after.text[field] !== before.text[field]) body[field] = after.text[field].trim();
  }
  const category = categoryPart(after);
  if (after.categoryMode === 'new' ? category.categoryText : after.categoryId !== before.categoryId) {
    Object.assign(body, category);
  }
  return Object.keys(body).length > 1 ? body : undefined;
}
