import type { AdminBook, AdminBookDetail, BookListQuery, BookPage } from '@readlib/sdk';
import type { BookFormState } from './book-form.state';

/** What makes two books the same for `POST /book/create` (refused with 409): title, author and publisher. */
export interface BookIdentity {
  title: string;
  author: string;
  publisher: string;
}

const LIST_LIMITS: Readonly<Record<string, number>> = __BOOK_LIST_LIMITS__;

/**
 * The identity the book would have once created: create sends the form's non-empty values (trimmed),
 * the service keeps the upload's parsed ones for the fields left empty.
 */
export function identityOf(form: BookFormState, parsed: AdminBookDetail): BookIdentity {
  const value = (field: keyof BookIdentity) => form.text[field].trim() || parsed[field].trim();
  return { title: value('title'), author: value('author'), publisher: value('publisher') };
}

export const sameIdentity = (a: BookIdentity, b: BookIdentity): boolean =>
  a.title === b.title.trim() && a.author === b.author.trim() && a.publisher === b.publisher.trim();

/** The start of a text within a filter's length, in code points (the schema counts them so). */
const clip = (text: string, max: number | undefined) => (max ? [...text].slice(0, max).join('') : text);

/**
 * A catalogue book the create would collide with, found through the list's title and author filters
 * (substrings; the one page of the largest size the list serves), then compared exactly.
 */
export async function findDuplicate(
  listBooks: (query: BookListQuery) => Promise<BookPage>,
  identity: BookIdentity,
): Promise<AdminBook | undefined> {
  if (!identity.title) return undefined;
  const query: BookListQuery = {
    title: clip(identity.title, LIST_LIMITS.title),
    pageSize: LIST_LIMITS.pageSize,
    ...(identity.author ? { author: clip(identity.author, LIST_LIMITS.author) } : {}),
  };
  const page = await listBooks(query);
  return page.data.find((book) => sameIdentity(identity, book));
}
