/**
 * Type-level tests, checked by `pnpm --filter @readlib/sdk typecheck` (tsc over test/) and by
 * test/package.test.ts. Nothing here runs: every `@ts-expect-error` line must fail to compile, or tsc
 * reports the directive as unused.
 */
import type { AdminBookDetail, BookSummary, HomeData, ShelfEntry } from '@readlib/contracts';
import type {
  AdminRoutes,
  BodyOf,
  QueryOf,
  ReaderRoutes,
  ResultOf,
  RouteSpec,
} from '@readlib/contracts/routes';
import { expectTypeOf } from 'vitest';
import {
  type AdminClient,
  type ApiErrorKind,
  type BookListQuery,
  type BookListSort,
  type BookListSortField,
  type BookPage,
  type CallOptions,
  createAdminClient,
  createReaderClient,
  type FetchLike,
  type MiniProgramAdminClient,
  type MiniProgramFetch,
  type ReaderClient,
  type UploadProgress,
} from '../src/index.js';
import type { AdminRouteTypes, ReaderRouteTypes } from '../src/route-calls.generated.js';

export async function readerCalls(reader: ReaderClient): Promise<void> {
  expectTypeOf(await reader.getHome({ openId: 'o' })).toEqualTypeOf<HomeData>();
  expectTypeOf(await reader.getShelf({ openId: 'o' })).toEqualTypeOf<ShelfEntry[]>();
  expectTypeOf(await reader.searchList({ author: 'a' })).toEqualTypeOf<BookSummary[]>();
  await reader.searchList({ categoryId: '3', page: 2, publisher: undefined });
  // @ts-expect-error search-list needs a filter (the service refuses a call without one)
  await reader.searchList();
  // @ts-expect-error paging alone is no filter
  await reader.searchList({ page: 1, pageSize: 10 });
  // @ts-expect-error a filter set to undefined is not sent, so it is no filter either
  await reader.searchList({ author: undefined });
  expectTypeOf(await reader.saveRank({ fileName: 'f', openId: 'o', rank: 3 })).toEqualTypeOf<void>();
  expectTypeOf(await reader.saveShelf({ openId: 'o', fileName: 'f' })).toEqualTypeOf<void>();
  // an OPDS route answers a document: its text
  expectTypeOf(await reader.getOpds2CategoryBooks({ id: 3, page: 2 })).toEqualTypeOf<string>();
  expectTypeOf(await reader.getOpdsRoot()).toEqualTypeOf<string>();
  // @ts-expect-error a category feed names its category
  await reader.getOpdsCategoryBooks({ page: 2 });

  // @ts-expect-error a wrong parameter name (fileNme)
  await reader.getBookDetail({ fileNme: 'f' });
  // @ts-expect-error an unknown extra parameter
  await reader.getBookDetail({ fileName: 'f', openid: 'o' });
  // @ts-expect-error a wrong parameter type (rank is a number)
  await reader.saveRank({ fileName: 'f', openId: 'o', rank: '3' });
  // @ts-expect-error a required parameter missing (openId)
  await reader.getHome({});
  // @ts-expect-error the shelf takes {openId, fileName}, not the encoded string
  await reader.saveShelf({ shelf: '{"openId":"o","fileName":"f"}' });
  // @ts-expect-error gender is an integer, not a string
  await reader.registerUser({ openId: 'o', gender: 'male' });
  // @ts-expect-error no such method: method names are the routes' operationIds
  await reader.getBook({ fileName: 'f' });

  // every method takes a last optional CallOptions: after its parameters, or alone
  const signal = new AbortController().signal;
  expectTypeOf(await reader.getHome({ openId: 'o' }, { timeoutMs: 500, signal })).toEqualTypeOf<HomeData>();
  expectTypeOf(await reader.getRecommendBatch({ signal })).toEqualTypeOf<BookSummary[]>();
  await reader.saveShelf({ openId: 'o', fileName: 'f' }, { timeoutMs: 100 });
  await reader.registerUser({ openId: 'o' }, {});
  await reader.health({ timeoutMs: 100 });
  await reader.ready({ signal });
  expectTypeOf<Parameters<ReaderClient['searchBooks']>[1]>().toEqualTypeOf<CallOptions | undefined>();
  // @ts-expect-error timeoutMs is a number of milliseconds
  await reader.getHotSearch({ timeoutMs: '100' });
  // @ts-expect-error an unknown call option (timeout)
  await reader.getHotSearch({ timeout: 100 });
  // @ts-expect-error signal is an AbortSignal, not its controller
  await reader.getHotSearch({ signal: new AbortController() });
  // @ts-expect-error the call options come after the query, not instead of it
  await reader.searchBooks({ timeoutMs: 100 });
  // @ts-expect-error one argument too many
  await reader.health({}, {});
  createReaderClient({ baseUrl: 'http://x', timeoutMs: 5_000 });
  // @ts-expect-error the client timeout is a number too
  createReaderClient({ baseUrl: 'http://x', timeoutMs: '5s' });
}

export async function adminCalls(admin: AdminClient): Promise<void> {
  const page = await admin.listBooks({ page: 1, sort: '-id' });
  expectTypeOf(page).toEqualTypeOf<BookPage>();
  expectTypeOf(page.data[0]!.fileName).toEqualTypeOf<string>();
  expectTypeOf(page.total).toEqualTypeOf<number>();
  expectTypeOf(await admin.deleteBook({ fileName: 'f' })).toEqualTypeOf<void>();
  await admin.uploadBook(new Uint8Array(8), 'a.epub');
  await admin.uploadBook(new Blob([]));

  // @ts-expect-error login takes username and password, not an object
  await admin.login({ username: 'u', password: 'p' });
  // @ts-expect-error a wrong body field name (titel)
  await admin.updateBook({ fileName: 'f', titel: 'x' });
  // @ts-expect-error pageSize is a number
  await admin.listBooks({ pageSize: '20' });
  // sort: a field of BOOK_LIST_SORT_FIELDS, with '+', '-' or no sign (the service's parser)
  await admin.listBooks({ sort: 'title' });
  await admin.listBooks({ sort: '+createdAt' });
  await admin.listBooks({ sort: '-fileName', title: 'x' });
  expectTypeOf<NonNullable<BookListQuery['sort']>>().toEqualTypeOf<BookListSort>();
  expectTypeOf<Extract<BookListSort, `-${string}`>>().toEqualTypeOf<`-${BookListSortField}`>();
  // @ts-expect-error not a sortable field
  await admin.listBooks({ sort: 'nonsense' });
  // @ts-expect-error a sortable field, but a sign the service does not read
  await admin.listBooks({ sort: '*title' });
  // @ts-expect-error fields are case-sensitive
  await admin.listBooks({ sort: '-Title' });
  // @ts-expect-error an empty sort is refused by the service's pattern
  await admin.listBooks({ sort: '' });
  const field = 'author' as BookListSortField;
  await admin.listBooks({ sort: `-${field}` });
  // @ts-expect-error any string does not do: build it from a BookListSortField
  await admin.listBooks({ sort: String(field) });
  // @ts-expect-error deleteBook needs fileName
  await admin.deleteBook({});
  expectTypeOf(await admin.getBook({ fileName: 'f' })).toEqualTypeOf<AdminBookDetail>();
  // @ts-expect-error getBook needs fileName (the service answers code -1 without it)
  await admin.getBook({});
  // @ts-expect-error getBook needs its query
  await admin.getBook();
  // @ts-expect-error an upload is bytes or a Blob, not a path
  await admin.uploadBook('/tmp/book.epub');
  // @ts-expect-error days is a number
  await admin.getScreenData({ days: '7' });

  const signal = new AbortController().signal;
  await admin.login('u', 'p', { timeoutMs: 1_000 });
  await admin.uploadBook(new Uint8Array(8), undefined, { timeoutMs: 120_000, signal });
  await admin.uploadBook(new Blob([]), 'a.epub', { signal });
  expectTypeOf(await admin.listBooks(undefined, { signal })).toEqualTypeOf<BookPage>();
  expectTypeOf(await admin.deleteBook({ fileName: 'f' }, { timeoutMs: 10 })).toEqualTypeOf<void>();
  await admin.getDashboard({ timeoutMs: 100 });
  await admin.ready({ signal });
  // @ts-expect-error uploadBook keeps its positions: fileName second, call options third
  await admin.uploadBook(new Uint8Array(8), { timeoutMs: 100 });
  await admin.uploadBook(new Blob([]), undefined, {
    signal,
    onProgress: (progress) => expectTypeOf(progress).toEqualTypeOf<UploadProgress>(),
  });
  expectTypeOf<UploadProgress>().toEqualTypeOf<{ loaded: number; total: number }>();
  // @ts-expect-error onProgress is an upload's: other calls take CallOptions only
  await admin.listBooks(undefined, { onProgress: () => {} });
  // @ts-expect-error setToken is not a call
  admin.setToken('t', { timeoutMs: 100 });
  createAdminClient({ baseUrl: 'http://x', timeoutMs: 5_000 });
  // @ts-expect-error the client timeout is a number
  createAdminClient({ baseUrl: 'http://x', timeoutMs: null });
}

export async function miniProgramUploads(fetch: MiniProgramFetch, plain: FetchLike): Promise<void> {
  const onPlatform = createAdminClient({ baseUrl: 'http://x', fetch });
  expectTypeOf(onPlatform).toEqualTypeOf<MiniProgramAdminClient>();
  expectTypeOf(
    await onPlatform.uploadBook({ filePath: 'wxfile://tmp_1.epub' }),
  ).toEqualTypeOf<AdminBookDetail>();
  await onPlatform.uploadBook({ filePath: 'wxfile://tmp_1.epub' }, { timeoutMs: 60_000 });
  await onPlatform.uploadBook(
    { filePath: 'wxfile://tmp_1.epub' },
    { onProgress: ({ loaded, total }) => loaded / total },
  );
  // @ts-expect-error over an adapter, an upload is a local file path: the runtimes have no Blob or FormData
  await onPlatform.uploadBook(new Uint8Array(8));
  // @ts-expect-error the platforms name the part after the path: no fileName argument
  await onPlatform.uploadBook({ filePath: 'wxfile://tmp_1.epub' }, 'a.epub');
  // every other method is the AdminClient's
  expectTypeOf(onPlatform.listBooks).toEqualTypeOf<AdminClient['listBooks']>();

  const onFetch = createAdminClient({ baseUrl: 'http://x', fetch: plain });
  expectTypeOf(onFetch).toEqualTypeOf<AdminClient>();
  // @ts-expect-error over fetch, an upload is bytes, a Blob or a File, not a local path
  await onFetch.uploadBook({ filePath: '/tmp/book.epub' });
  // the reader client takes an adapter as its fetch
  createReaderClient({ baseUrl: 'http://x', fetch });
}

export function errorKinds(kind: ApiErrorKind): void {
  // @ts-expect-error not a kind of the catalogue
  const wrong: ApiErrorKind = 'forbidden';
  void [kind, wrong, createReaderClient];
}

/** true when each of A and B is assignable to the other */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Acknowledged<R> = R extends undefined ? void : R;
/** per route: whether its named input and result (src/route-calls.generated.ts) are the table's types */
type NamesHold<T extends Record<string, RouteSpec>, N extends { [K in keyof T]: object }> = {
  [K in keyof T]: [
    N[K] extends { result: infer R } ? Same<R, Acknowledged<ResultOf<T[K]>>> : 'no result named',
    N[K] extends { input: infer I }
      ? Same<I, QueryOf<T[K]> extends object ? QueryOf<T[K]> : BodyOf<T[K]>>
      : T[K] extends { querystring: string } | { body: string }
        ? 'the table names its input, the index does not'
        : true,
  ];
}[keyof T];

export function namedRouteTypes(): void {
  // the names a hover shows stand for exactly what the route tables compute
  expectTypeOf<NamesHold<ReaderRoutes, ReaderRouteTypes>>().toEqualTypeOf<[true, true]>();
  // listBooks answers a page, which AdminClient types itself (BookPage)
  expectTypeOf<NamesHold<Omit<AdminRoutes, 'listBooks'>, AdminRouteTypes>>().toEqualTypeOf<[true, true]>();
}
