import { type Static, Type } from '@sinclair/typebox';
import { fileNameParam, freeString, MaxLength } from './fields.js';

/** Writable fields of an e-book (spec §2.10, §4.11, decisions.md §4). */
const writableProperties = () => ({
  fileName: fileNameParam('E-book file name, as returned by POST /book/upload.'),
  author: Type.Optional(freeString(MaxLength.text, 'Author.')),
  cover: Type.Optional(
    freeString(
      MaxLength.path,
      "Cover URL: empty, or a URL of this service's /res/ files (as get and upload answer it), taken back to its stored path; ignored when coverPath is sent. Any other URL is refused: a cover is a file of the store.",
    ),
  ),
  coverPath: Type.Optional(freeString(MaxLength.path, 'Cover path in the file store.')),
  filePath: Type.Optional(freeString(MaxLength.path, 'E-book file path in the file store.')),
  language: Type.Optional(freeString(MaxLength.code, 'Language.')),
  originalName: Type.Optional(freeString(MaxLength.text, 'Original name of the uploaded file.')),
  publisher: Type.Optional(freeString(MaxLength.text, 'Publisher.')),
  rootFile: Type.Optional(freeString(MaxLength.path, 'Root file path.')),
  title: Type.Optional(
    freeString(
      MaxLength.text,
      "Title. Create needs one for a fileName that was not uploaded (an upload's comes from its EPUB); never blank.",
    ),
  ),
  unzipPath: Type.Optional(freeString(MaxLength.path, 'Path of the unpacked book in the file store.')),
  category: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$', maxLength: 10 })], {
      description: 'Id of an existing category (a numeric string is accepted from URL-encoded forms).',
    }),
  ),
  categoryText: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MaxLength.shortText,
      description: 'Category name: an existing one, or a new one, which creates the category.',
    }),
  ),
});

/** POST /book/update body (spec §4.11): changes only the fields sent (decisions.md §4). */
export const BookUpdateBody = Type.Object(writableProperties(), {
  $id: 'BookUpdateBody',
  additionalProperties: false,
  description: 'E-book update (spec §4.11).',
});
export interface BookUpdateBody extends Static<typeof BookUpdateBody> {}

/** POST /book/create body (spec §4.11): the update fields plus url (decisions.md §4). */
export const BookCreateBody = Type.Object(
  {
    ...writableProperties(),
    url: Type.Optional(freeString(MaxLength.url, 'Download path of the e-book (stored, not fetched).')),
  },
  { $id: 'BookCreateBody', additionalProperties: false, description: 'E-book creation (spec §4.11).' },
);
export interface BookCreateBody extends Static<typeof BookCreateBody> {}

/**
 * POST /book/upload body (spec §4.11): multipart/form-data with the EPUB in field `file`. Documents the
 * form for OpenAPI clients; the part itself is checked by the multipart reader and the EPUB parser.
 */
export const UploadForm = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The EPUB file.' }) },
  { $id: 'UploadForm', description: 'EPUB upload (multipart/form-data).' },
);
export interface UploadForm extends Static<typeof UploadForm> {}
