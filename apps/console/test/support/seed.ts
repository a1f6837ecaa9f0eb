import { readFile } from 'node:fs/promises';
import { makeEpub } from '@readlib/epub/testing';
import { type AdminClient, createAdminClient, createReaderClient, type ReaderClient } from '@readlib/sdk';
import { REAL_EPUB } from './paths';
import { OPERATOR, type Services } from './services';

export interface Clients {
  admin: AdminClient;
  reader: ReaderClient;
}

export async function clients(s: Services): Promise<Clients> {
  const admin = createAdminClient({ baseUrl: s.adminUrl });
  await admin.login(OPERATOR.username, OPERATOR.password);
  return { admin, reader: createReaderClient({ baseUrl: s.readerUrl }) };
}

/** Uploads an EPUB and creates the book, as an operator would; returns its fileName. */
export async function addBook(
  admin: AdminClient,
  epub: Uint8Array,
  extra: { categoryText?: string } = {},
): Promise<string> {
  const uploaded = await admin.uploadBook(epub);
  await admin.createBook({ fileName: uploaded.fileName, ...extra });
  return uploaded.fileName;
}

/** Real EPUBs put in the catalogue before the browser opens (not the one the journey uploads). */
export const CATALOGUE_FIXTURES = ['alice.epub', 'test-book-v3.epub', 'testbook.epub', 'live-manual.ja.epub'];

/** Generated books, enough for a second page of the list, with distinct titles, authors and categories. */
export const GENERATED = Array.from({ length: 24 }, (_, i) => ({
  title: `Generated Volume ${String(i + 1).padStart(2, '0')}`,
  author: i % 2 === 0 ? 'Ada Even' : 'Odo Odd',
  category: i % 3 === 0 ? 'Poetry Shelf' : 'Prose Shelf',
  cover: i % 2 === 0,
}));

/** Readers with provinces and cities as WeChat profiles carry them (Chinese and pinyin, with suffixes). */
export const READERS = [
  { openId: 'reader-gd-1', province: '广东省', city: '深圳' },
  { openId: 'reader-gd-2', province: 'Guangdong', city: 'Guangzhou' },
  { openId: 'reader-bj-1', province: '北京', city: '北京' },
  { openId: 'reader-sh-1', province: 'Shanghai', city: 'Shanghai' },
  { openId: 'reader-zj-1', province: '浙江', city: '杭州' },
];

export const KEYWORDS = [
  { keyword: 'Alice', times: 5 },
  { keyword: '红楼梦', times: 3 },
  { keyword: 'Wells', times: 2 },
];

/**
 * The catalogue and the readers' activity the dashboard draws: real and generated books, registered
 * readers, book views and searches, all through the services' APIs.
 */
export async function seedLibrary(s: Services): Promise<void> {
  const { admin, reader } = await clients(s);
  const fileNames: string[] = [];
  for (const name of CATALOGUE_FIXTURES)
    fileNames.push(await addBook(admin, await readFile(REAL_EPUB(name))));
  for (const book of GENERATED) {
    const epub = makeEpub({
      title: book.title,
      creators: [book.author],
      cover: book.cover,
      chapters: [{ title: 'One' }],
    });
    await addBook(admin, epub, { categoryText: book.category });
  }
  for (const r of READERS)
    await reader.registerUser({ openId: r.openId, province: r.province, city: r.city });
  for (const [i, r] of READERS.entries()) {
    for (const fileName of fileNames.slice(0, i + 1))
      await reader.getBookDetail({ fileName, openId: r.openId });
  }
  for (const { keyword, times } of KEYWORDS) {
    for (let i = 0; i < times; i++)
      await reader.searchBooks({ keyword, openId: READERS[i % READERS.length]!.openId });
  }
}
