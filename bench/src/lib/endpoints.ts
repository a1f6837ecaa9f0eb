import { BOOK_LIST_SORT_FIELDS } from '@readlib/contracts';
import { keywordMix, type Sample, searchKeyword, titleKeyword } from './servers.js';

export interface Endpoint {
  name: string;
  server: 'reader' | 'admin' | 'bare';
  path: (r: () => number) => string;
  headers?: Record<string, string>;
}

const enc = (s: string) => encodeURIComponent(s);
const at = <T>(r: () => number, a: readonly T[]) => a[Math.floor(r() * a.length)]!;

/** The endpoints of bench:http (bench:cold measures some of them), each a seeded draw of paths. */
export function endpoints(s: Sample, token: string): Endpoint[] {
  const titleWord = titleKeyword(s);
  const mix = keywordMix(s, 1000);
  // the admin list: one of the newest 50 pages, or the first page of a title filter (a title's first
  // five characters, as an operator starts typing one)
  const listPage = (r: () => number) => `/book/list?page=${1 + Math.floor(r() * 50)}&pageSize=20&sort=-id`;
  const titleFiltered = (r: () => number) =>
    `/book/list?page=1&pageSize=20&title=${enc(at(r, s.titles).slice(0, 5))}`;
  const adminList = (name: string, path: Endpoint['path']): Endpoint => ({
    name,
    server: 'admin',
    path,
    headers: { authorization: `Bearer ${token}` },
  });
  const shelf = (r: () => number) =>
    enc(JSON.stringify({ openId: at(r, s.openIds), fileName: at(r, s.fileNames) }));
  return [
    { name: 'bare', server: 'bare', path: () => '/bare' },
    // the reader's plugin stack (hooks, headers, serialisation) with no SQL: the floor of every route
    { name: 'healthz', server: 'reader', path: () => '/healthz' },
    { name: 'category list', server: 'reader', path: () => '/book/category/list/v2' },
    { name: 'home/v2', server: 'reader', path: (r) => `/book/home/v2?openId=${at(r, s.openIds)}` },
    {
      name: 'detail',
      server: 'reader',
      path: (r) =>
        `/book/detail?fileName=${at(r, r() < 0.5 ? s.hotFileNames : s.fileNames)}&openId=${at(r, s.openIds)}`,
    },
    {
      name: 'detail/anon',
      server: 'reader',
      path: (r) => `/book/detail?fileName=${at(r, r() < 0.5 ? s.hotFileNames : s.fileNames)}`,
    },
    {
      name: 'search',
      server: 'reader',
      path: (r) => `/book/search?keyword=${searchKeyword(s, r)}&openId=${at(r, s.openIds)}`,
    },
    // the targets' search: one keyword taken from a title, asked again and again
    {
      name: 'search/title',
      server: 'reader',
      path: (r) => `/book/search?keyword=${titleWord}&openId=${at(r, s.openIds)}`,
    },
    // reported beside it: 1,000 keywords drawn as above, each asked again and again
    {
      name: 'search/mix',
      server: 'reader',
      path: (r) => `/book/search?keyword=${at(r, mix)}&openId=${at(r, s.openIds)}`,
    },
    {
      name: 'search-list',
      server: 'reader',
      path: (r) =>
        r() < 0.5
          ? `/book/search-list?author=${enc(at(r, s.authors))}`
          : `/book/search-list?category=${enc(at(r, s.categories))}&page=${1 + Math.floor(r() * 5)}`,
    },
    // the OPDS twins of search-list, pages of 20 books alike: an author's books, a category's pages 1-5
    ...(['/opds', '/opds/v2'] as const).map(
      (root): Endpoint => ({
        name: `${root} feed`,
        server: 'reader',
        path: (r) =>
          r() < 0.5
            ? `${root}/author?name=${enc(at(r, s.authors))}`
            : `${root}/category?id=${at(r, s.categoryIds)}&page=${1 + Math.floor(r() * 5)}`,
      }),
    ),
    { name: 'shelf/get', server: 'reader', path: (r) => `/book/shelf/get?openId=${at(r, s.openIds)}` },
    { name: 'shelf/save', server: 'reader', path: (r) => `/book/shelf/save?shelf=${shelf(r)}` },
    // same seed as save: removes the entries the save run added
    { name: 'shelf/remove', server: 'reader', path: (r) => `/book/shelf/remove?shelf=${shelf(r)}` },
    adminList('admin list', (r) => (r() < 0.5 ? listPage(r) : titleFiltered(r))),
    // the mix's two halves alone: which of them the mix's figures are made of
    adminList('admin list/pages', listPage),
    adminList('admin list/title', titleFiltered),
    // any page of the whole list in any sort, as the pager's last-page button and a sorted column
    // reach: an OFFSET of up to the catalogue's size
    adminList(
      'admin list/deep',
      (r) =>
        `/book/list?page=${1 + Math.floor(r() * Math.ceil(s.books / 20))}&pageSize=20&sort=${r() < 0.5 ? '-' : '%2B'}${at(r, BOOK_LIST_SORT_FIELDS)}`,
    ),
  ];
}
