import { type Static, Type } from '@sinclair/typebox';
import { BookSummary } from './book.schema.js';
import { fileNameParam, MaxLength, openIdParam } from './fields.js';

/** Shelf entry: book summary plus owner and date (spec §2.4). */
export const ShelfEntry = Type.Object(
  {
    ...BookSummary.properties,
    openId: Type.String({ description: 'Owner of the shelf (openId).' }),
    date: Type.Integer({ description: 'When the book was shelved, epoch time in milliseconds.' }),
  },
  { $id: 'ShelfEntry', description: 'Shelf entry (spec §2.4).' },
);
export interface ShelfEntry extends Static<typeof ShelfEntry> {}

/** GET /book/shelf/get query (spec §4.8): with fileName, the shelf status of one book; without, the shelf. */
export const ShelfGetQuery = Type.Object(
  {
    openId: openIdParam(),
    fileName: Type.Optional(fileNameParam('Ask about this book only (its shelf status).')),
  },
  { $id: 'ShelfGetQuery', description: 'Shelf query (spec §4.8).' },
);
export interface ShelfGetQuery extends Static<typeof ShelfGetQuery> {}

/** The decoded `shelf` parameter (decisions.md §3); anything else is error_code 2. */
export const ShelfParam = Type.Object(
  {
    openId: Type.String({
      minLength: 1,
      maxLength: MaxLength.openId,
      description: 'Registered user identifier.',
    }),
    fileName: Type.String({
      minLength: 1,
      maxLength: MaxLength.fileName,
      description: 'E-book file name, the unique identifier of the book.',
    }),
  },
  { $id: 'ShelfParam', description: 'Decoded shelf parameter (spec §4.8).' },
);
export interface ShelfParam extends Static<typeof ShelfParam> {}
