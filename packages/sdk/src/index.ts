/** The contracts' static types used by the clients, so front ends import them from one place. */

export { BOOK_LIST_SORT_FIELDS, type BookListSortField } from '@readlib/contracts/routes';

export { createAdminClient } from './admin.client.js';
export type {
  AdminClient,
  AdminClientOptions,
  BookPage,
  MiniProgramAdminClient,
  UploadFile,
} from './admin-client.types.js';
export { ApiError, type ApiErrorInit, type ApiErrorKind, isApiError } from './api-error.js';
export type * from './contract-types.js';
export { type ApiFamily, errorKindOf } from './error-catalogue.js';
export { createReaderClient } from './reader.client.js';
export type {
  ReaderClient,
  ReaderClientOptions,
  SearchListFilter,
  SearchListInput,
} from './reader-client.types.js';
export type {
  CallOptions,
  FetchInit,
  FetchLike,
  FetchResponseLike,
  LocalFile,
  MiniProgramFetch,
  UploadCallOptions,
  UploadInit,
  UploadProgress,
} from './transport.js';
