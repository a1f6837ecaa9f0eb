/**
 * A front-end team's code against the installed tarball (test/packed-sdk.test.ts copies this folder
 * into an empty project outside the workspace). It is compiled there with strict settings and
 * `exactOptionalPropertyTypes`; the `@ts-expect-error` lines must each fail to compile, which proves
 * the contract types reached it.
 */
import {
  type AdminBookDetail,
  type AdminClient,
  type BookContents,
  type BookSummary,
  createAdminClient,
  createReaderClient,
  HomeData,
  isApiError,
  type ReaderClient,
  type UploadProgress,
} from '@readlib/sdk';
import { type AlipayApi, alipayFetch } from '@readlib/sdk/alipay';
import { type WechatApi, wechatFetch } from '@readlib/sdk/wechat';

export interface Report {
  uploadedTitle: string;
  /** what the upload's onProgress heard (in Node: the end only) */
  progress: UploadProgress[];
  listed: number;
  homeKeys: string[];
  detailTitle: string;
  missing: { kind: string; status: number; code: number };
}

export async function main(
  urls: { reader: string; admin: string },
  operator: { username: string; password: string },
  epub: Uint8Array,
): Promise<Report> {
  const admin = createAdminClient({ baseUrl: urls.admin, timeoutMs: 30_000 });
  await admin.login(operator.username, operator.password);
  const progress: UploadProgress[] = [];
  const uploaded = await admin.uploadBook(epub, 'consumer.epub', { onProgress: (p) => progress.push(p) });
  await admin.createBook({ fileName: uploaded.fileName });
  const page = await admin.listBooks({ pageSize: 5 });

  const reader = createReaderClient({ baseUrl: urls.reader, timeoutMs: 10_000 });
  await reader.registerUser({ openId: 'consumer-app' });
  const home: HomeData = await reader.getHome({ openId: 'consumer-app' });
  const detail = await reader.getBookDetail({ fileName: uploaded.fileName, openId: 'consumer-app' });
  const missing = await reader.getBookDetail({ fileName: 'no-such-book' }).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!isApiError(missing)) throw new Error('a missing book must reject with an ApiError');
  return {
    uploadedTitle: uploaded.title,
    progress,
    listed: page.total,
    homeKeys: Object.keys(home).sort(),
    detailTitle: detail.title,
    missing: { kind: missing.kind, status: missing.status, code: missing.code },
  };
}

/**
 * Never called: the README's admin example, compiled under `exactOptionalPropertyTypes` (an optional
 * option or input given as `undefined`).
 */
export async function optionalsLeftUndefined(
  saved: { getItem(key: string): string | null },
  fileInput: { files: ArrayLike<Blob> | null },
  pageSize: number | undefined,
  signal: AbortSignal | undefined,
) {
  const admin = createAdminClient({
    baseUrl: 'https://admin.example.com',
    token: saved.getItem('token') ?? undefined,
    timeoutMs: undefined,
    onUnauthorized: undefined,
  });
  const file = fileInput.files?.[0];
  if (!file) throw new Error('choose an EPUB file first');
  const uploaded = await admin.uploadBook(file, undefined, { signal, onProgress: undefined });
  await admin.listBooks({ sort: '-id', pageSize, title: undefined }, { timeoutMs: undefined, signal });
  const reader = createReaderClient({ baseUrl: 'https://reader.example.com', fetch: undefined });
  await reader.searchBooks({ keyword: uploaded.title, pageSize });
}

/** Never called: each line below must be refused by the compiler. */
export function refusedByTheCompiler(reader: ReaderClient, admin: AdminClient, wx: WechatApi, my: AlipayApi) {
  // @ts-expect-error HomeQuery (a contract type) requires openId
  void reader.getHome({});
  // @ts-expect-error BookSummary's title is a string
  const title: number = ({} as BookSummary).title;
  // @ts-expect-error the package carries the contracts' types, not their schemas
  void HomeData;
  // @ts-expect-error a client over fetch uploads bytes or a File, not a local path
  void admin.uploadBook({ filePath: 'wxfile://tmp/book.epub' });
  const onWechat = createAdminClient({ baseUrl: 'https://admin.example.com', fetch: wechatFetch(wx) });
  void onWechat.uploadBook({ filePath: 'wxfile://tmp/book.epub' }, { timeoutMs: 60_000 });
  // @ts-expect-error over a mini-program adapter, uploadBook takes a local file path
  void onWechat.uploadBook(new Uint8Array(4));
  const onAlipay = createAdminClient({ baseUrl: 'https://admin.example.com', fetch: alipayFetch(my) });
  // @ts-expect-error the platforms cannot name the uploaded part: no fileName argument
  void onAlipay.uploadBook({ filePath: 'https://resource/apml.epub' }, 'book.epub');
  // @ts-expect-error not a field the book list sorts by
  void admin.listBooks({ sort: 'nonsense' });
  return title;
}

/** Never called: the contents tree is typed at every depth (its declarations name ContentsNode). */
export function typedContentsTree(c: BookContents, uploaded: AdminBookDetail): string[] {
  // @ts-expect-error a nested entry has no such member
  void c.contentsTree[0]!.children[0].nope.whatever;
  // @ts-expect-error nor at the third level, nor in the admin's book
  void uploaded.contentsTree[0]!.children[0].children[0].nope;
  // @ts-expect-error a label is a string
  const level: number = c.contentsTree[0]!.children[0].label;
  void level;
  return c.contentsTree.flatMap((node) =>
    node.children.map((child) => child.children[0]?.label ?? child.label),
  );
}
