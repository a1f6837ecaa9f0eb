import { type Static, Type } from '@sinclair/typebox';
import { BOOK_LIST_SORT_FIELDS } from './book-list-sort.js';
import { contentsProperties } from './contents.schema.js';
import { fileNameParam, MaxLength, pageParam, pageSizeParam } from './fields.js';

/** Administration e-book without contents (spec §2.10). */
export const AdminBook = Type.Object(
  {
    id: Type.String({ description: 'E-book id.' }),
    fileName: Type.String({ description: 'File name, the unique identifier of the book.' }),
    title: Type.String({ description: 'Title.' }),
    author: Type.String({ description: 'Author.' }),
    publisher: Type.String({ description: 'Publisher.' }),
    language: Type.String({ description: 'Language.' }),
    category: Type.Integer({ description: 'Category id.' }),
    categoryText: Type.String({ description: 'Category name.' }),
    cover: Type.String({ description: "Cover URL; '' when the book has no cover." }),
    rootFile: Type.String({ description: 'Root file path.' }),
  },
  { $id: 'AdminBook', description: 'Administration e-book (spec §2.10).' },
);
export interface AdminBook extends Static<typeof AdminBook> {}

/**
 * Where a book's files are, relative to the file store, as the create and update bodies take them: a
 * console that posts an upload's answer back to create sends them unchanged ('' when the book has none).
 */
const storedFileProperties = () => ({
  filePath: Type.String({ description: 'E-book file path in the file store (`epub/<fileName>.epub`).' }),
  unzipPath: Type.String({
    description: 'Path of the unpacked book in the file store (`unzip/<fileName>`).',
  }),
  coverPath: Type.String({ description: "Cover path in the file store; '' when the book has no cover." }),
  originalName: Type.String({ description: 'Name of the file the operator uploaded.' }),
});

/**
 * Administration e-book with its file paths, contents and contentsTree: GET /book/get and POST
 * /book/upload (spec §2.10).
 */
export const AdminBookDetail = Type.Object(
  { ...AdminBook.properties, ...storedFileProperties(), ...contentsProperties() },
  { $id: 'AdminBookDetail', description: 'Administration e-book with its table of contents (spec §2.10).' },
);
export interface AdminBookDetail extends Static<typeof AdminBookDetail> {}

/** Administration category (spec §2.12). */
export const AdminCategory = Type.Object(
  {
    label: Type.String({ description: 'Category name.' }),
    value: Type.Integer({ description: 'Category id.' }),
    num: Type.Integer({ minimum: 0, description: 'Number of e-books in the category.' }),
  },
  { $id: 'AdminCategory', description: 'Administration category (spec §2.12).' },
);
export interface AdminCategory extends Static<typeof AdminCategory> {}

/** GET /book/list query (spec §4.11, decisions.md §4). */
export const BookListQuery = Type.Object(
  {
    page: Type.Optional(pageParam()),
    pageSize: Type.Optional(pageSizeParam()),
    sort: Type.Optional(
      Type.String({
        pattern: '^[+-]?[A-Za-z]+$',
        maxLength: 32,
        description: `Sort field, "+field" ascending or "-field" descending (no sign: ascending); the fields: ${BOOK_LIST_SORT_FIELDS.join(', ')} (category: by the category's name), each then by id. Default: -id.`,
      }),
    ),
    title: Type.Optional(Type.String({ maxLength: MaxLength.filter, description: 'Title substring.' })),
    author: Type.Optional(Type.String({ maxLength: MaxLength.filter, description: 'Author substring.' })),
    category: Type.Optional(
      Type.String({ maxLength: MaxLength.filter, description: 'Category name (exact match).' }),
    ),
  },
  { $id: 'BookListQuery', description: 'E-book list query (spec §4.11). Filters combine with AND.' },
);
export interface BookListQuery extends Static<typeof BookListQuery> {}

/** GET /book/delete query (spec §4.11). */
export const FileNameQuery = Type.Object(
  { fileName: fileNameParam() },
  { $id: 'FileNameQuery', description: 'Query naming one e-book.' },
);
export interface FileNameQuery extends Static<typeof FileNameQuery> {}

/** GET /book/get query (spec §4.11): missing or unknown fileName is code -1 (decisions.md §4). */
export const OptionalFileNameQuery = Type.Object(
  {
    fileName: Type.Optional(Type.String({ maxLength: MaxLength.fileName, description: 'E-book file name.' })),
  },
  { $id: 'OptionalFileNameQuery', description: 'Query optionally naming one e-book.' },
);
export interface OptionalFileNameQuery extends Static<typeof OptionalFileNameQuery> {}

/**
 * GET /book/same query: what makes two books the same for POST /book/create (refused with 409), compared
 * exactly as the create compares them. An author or publisher left out is the empty one.
 */
export const BookIdentityQuery = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: MaxLength.text, description: 'Title (exact).' }),
    author: Type.Optional(
      Type.String({ maxLength: MaxLength.text, description: 'Author (exact; default empty).' }),
    ),
    publisher: Type.Optional(
      Type.String({ maxLength: MaxLength.text, description: 'Publisher (exact; default empty).' }),
    ),
  },
  { $id: 'BookIdentityQuery', description: "A book's title, author and publisher." },
);
export interface BookIdentityQuery extends Static<typeof BookIdentityQuery> {}
