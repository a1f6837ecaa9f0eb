import type { AdminBook, AdminBookDetail } from '@readlib/sdk';
import type { BookFormState } from './book-form.state';

/** What makes two books the same for `POST /book/create` (refused with 409): title, author and publisher. */
export interface BookIdentity {
  title: string;
  author: string;
  publisher: string;
}

/**
 * The identity the book would have once created: create sends the form's non-empty values (trimmed),
 * the service keeps the upload's parsed ones for the fields left empty.
 */
export function identityOf(form: BookFormState, parsed: AdminBookDetail): BookIdentity {
  const value = (field: keyof BookIdentity) => form.text[field].trim() || parsed[field].trim();
  return { title: value('title'), author: value('author'), publisher: value('publisher') };
}

/**
 * The catalogue's book the create would collide with, if it has one. `GET /book/same` compares the title,
 * author and publisher exactly as the create compares them, through the title's index, so one request
 * settles it however many books share a word of the title.
 */
export async function findDuplicate(
  findSameBooks: (identity: BookIdentity) => Promise<AdminBook[]>,
  identity: BookIdentity,
): Promise<AdminBook | undefined> {
  if (!identity.title) return undefined;
  return (await findSameBooks(identity))[0];
}
