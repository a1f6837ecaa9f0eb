import { type Static, Type } from '@sinclair/typebox';
import { READERS_MAX, ref } from './fields.js';

/** Book summary (spec §2.1). */
export const BookSummary = Type.Object(
  {
    id: Type.Integer({ description: 'Record id.' }),
    fileName: Type.String({ description: 'E-book file name, the unique identifier of the book.' }),
    cover: Type.String({ description: "Cover image URL (absolute); '' when the book has no cover." }),
    title: Type.String({ description: 'Title.' }),
    author: Type.String({ description: 'Author.' }),
    publisher: Type.String({ description: 'Publisher.' }),
    bookId: Type.String({ description: 'Same value as fileName.' }),
    category: Type.Integer({ description: 'Category id.' }),
    categoryText: Type.String({ description: 'Category name.' }),
    language: Type.String({ description: 'Language code.' }),
    rootFile: Type.String({ description: 'Path of the package root file (OPF) inside the book.' }),
  },
  { $id: 'BookSummary', description: 'Book summary (spec §2.1).' },
);
export interface BookSummary extends Static<typeof BookSummary> {}

/** Reader of a book, inside the book detail `readers` (spec §2.3). */
export const Reader = Type.Object(
  {
    avatarUrl: Type.String({ description: 'Avatar image URL.' }),
    nickName: Type.String({ description: 'Nickname.' }),
    create_dt: Type.Integer({ description: 'Epoch time in milliseconds.' }),
  },
  { $id: 'Reader', description: 'Reader of a book (spec §2.3).' },
);
export interface Reader extends Static<typeof Reader> {}

/** Book detail: the summary plus flags, readers and ratings (spec §2.2, decisions.md §3). */
export const BookDetail = Type.Object(
  {
    ...BookSummary.properties,
    selected: Type.Boolean({ description: 'Flag present in the record (false unless set).' }),
    private: Type.Boolean({ description: 'Flag present in the record (false unless set).' }),
    cache: Type.Boolean({ description: 'Flag present in the record (false unless set).' }),
    haveRead: Type.Integer({ description: 'Flag/count present in the record (0 unless set).' }),
    opf: Type.String({
      description: 'Absolute URL of the package file: `/res/unzip/<fileName>/<rootFile>`.',
    }),
    readers: Type.Array(ref(Reader), {
      maxItems: READERS_MAX,
      description: `The ${READERS_MAX} most recent distinct registered viewers, newest first.`,
    }),
    readerNum: Type.Integer({ minimum: 0, description: 'Number of distinct viewers.' }),
    rank: Type.Integer({
      minimum: 0,
      maximum: 5,
      description: "The current user's rating, 0 when none (or no openId).",
    }),
    rankNum: Type.Integer({ minimum: 0, description: 'Number of ratings.' }),
    rankAvg: Type.String({
      description: 'Average rating as a decimal string rounded to 2 places, "0" when none.',
    }),
  },
  { $id: 'BookDetail', description: 'Book detail (spec §2.2).' },
);
export interface BookDetail extends Static<typeof BookDetail> {}
