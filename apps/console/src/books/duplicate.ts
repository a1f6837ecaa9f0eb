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

/** What the check found: the book already there, none, or none among the similar books it compared. */
export type DuplicateCheck =
  | { kind: 'found'; book: AdminBook }
  | { kind: 'none' }
  | { kind: 'unsure'; similar: number; compared: number };

/**
 * The most pages of the list one check reads: 20 pages of 100, 2,000 similar books. A common short title
 * (`Poems`) without an author is in thousands of a large catalogue's titles, and a short title or author
 * costs the service a read of every book it matches for each page. Similar books past this many are
 * not read at all: the check could not end in a certain answer, and it says so after the first page
 * (the create refuses a duplicate anyway).
 */
export const DUPLICATE_PAGES = 20;

/**
 * Whether the catalogue has a book the create would collide with. The list's title and author filters
 * (substrings) narrow the catalogue to the similar books; every page of them is then compared exactly,
 * not only the first: at 100,000 books a title matches thousands. Without an author the similar books
 * are sorted by author, so those without one (the only ones that can be the same) come first and the
 * check ends at the first page past them.
 */
export async function findDuplicate(
  listBooks: (query: BookListQuery) => Promise<BookPage>,
  identity: BookIdentity,
): Promise<DuplicateCheck> {
  if (!identity.title) return { kind: 'none' };
  const pageSize = LIST_LIMITS.pageSize;
  const query: BookListQuery = {
    title: clip(identity.title, LIST_LIMITS.title),
    pageSize,
    ...(identity.author
      ? { author: clip(identity.author, LIST_LIMITS.author) }
      : { sort: '+author' as const }),
  };
  /** a page's verdict: the book, the end of what can match, or go on */
  const verdict = (answer: BookPage): DuplicateCheck | undefined => {
    const book = answer.data.find((b) => sameIdentity(identity, b));
    if (book) return { kind: 'found', book };
    if (!identity.author && answer.data.some((b) => b.author.trim() !== '')) return { kind: 'none' };
    return undefined;
  };
  const first = await listBooks({ ...query, page: 1 });
  const found = verdict(first);
  if (found) return found;
  const pages = Math.ceil(first.total / pageSize);
  if (pages > DUPLICATE_PAGES) return { kind: 'unsure', similar: first.total, compared: first.data.length };
  // one page after another: the check runs while the operator reads the parsed book, and ends at the
  // first page that settles it without asking for the pages after
  for (let page = 2; page <= pages; page++) {
    const end = verdict(await listBooks({ ...query, page }));
    if (end) return end;
  }
  return { kind: 'none' };
}
