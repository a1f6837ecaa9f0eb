import { type Static, type TSchema, Type } from '@sinclair/typebox';

const errorCode = () =>
  Type.Integer({ description: 'Status of the reader API response: 0 success, otherwise an error code.' });
const adminCode = () =>
  Type.Integer({
    description: 'Status of the administration API response: 0 success, otherwise an error code.',
  });
const msg = () =>
  Type.String({ description: 'Human-readable message; free text, not part of the contract.' });

/** Reader API envelope `{ error_code, msg, data }` (spec §1). No `$id`: build one per route. */
export const ReaderEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ error_code: errorCode(), msg: msg(), data });

/** Reader API envelope without data (register, shelf save/remove, rank save). No `$id`: one per route. */
export const ReaderAck = () => Type.Object({ error_code: errorCode(), msg: msg() });
export type ReaderAck = Static<ReturnType<typeof ReaderAck>>;

/** Reader API error response (decisions.md §2). */
export const ReaderError = Type.Object(
  { error_code: errorCode(), msg: msg(), data: Type.Optional(Type.Null()) },
  { $id: 'ReaderError', description: 'Reader API error response.' },
);
export interface ReaderError extends Static<typeof ReaderError> {}

/** Administration API envelope `{ code, msg, data }` (spec §4.11). No `$id`: build one per route. */
export const AdminEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ code: adminCode(), msg: msg(), data });

/** Administration API envelope with `data: null` (delete, update, create). No `$id`: one per route. */
export const AdminAck = () => Type.Object({ code: adminCode(), msg: msg(), data: Type.Null() });
export type AdminAck = Static<ReturnType<typeof AdminAck>>;

/** Administration API error response (decisions.md §2). */
export const AdminError = Type.Object(
  { code: adminCode(), msg: msg(), data: Type.Optional(Type.Null()) },
  { $id: 'AdminError', description: 'Administration API error response.' },
);
export interface AdminError extends Static<typeof AdminError> {}

/** Paged administration list `{ code, msg, data: item[], page, pageSize, total }` (spec §4.11, GET /book/list). */
export const AdminPage = <T extends TSchema>(item: T) =>
  Type.Object({
    code: adminCode(),
    msg: msg(),
    data: Type.Array(item, { description: 'Items of the requested page.' }),
    page: Type.Integer({ minimum: 1, description: 'Page number of this page, starting at 1.' }),
    pageSize: Type.Integer({ minimum: 1, description: 'Page size used.' }),
    total: Type.Integer({ minimum: 0, description: 'Number of items matching the filters, all pages.' }),
  });
