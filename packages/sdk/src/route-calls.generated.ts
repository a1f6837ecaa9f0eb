// Written by `pnpm openapi` from the route tables of @readlib/contracts: edit those, then run it again.
import type {
  AdminBook,
  AdminBookDetail,
  AdminCategory,
  AdminUser,
  BookContents,
  BookCreateBody,
  BookDetail,
  BookIdentityQuery,
  BookListQuery,
  BookSummary,
  BookUpdateBody,
  CategoryItem,
  ContentsQuery,
  DashboardTotals,
  DetailQuery,
  FileNameQuery,
  Health,
  HomeData,
  HomeQuery,
  HotSearchItem,
  LoginBody,
  LoginData,
  MapItem,
  OpdsCategoryQuery,
  OpdsNameQuery,
  OpdsPageQuery,
  OpdsPublicationQuery,
  OpdsSearchQuery,
  OpenIdData,
  OpenIdQuery,
  OptionalFileNameQuery,
  PayOpenIdQuery,
  RankSaveQuery,
  Ready,
  RegisterBody,
  ScatterData,
  ScreenData,
  ScreenQuery,
  SearchListQuery,
  SearchQuery,
  SearchResult,
  ShelfEntry,
  ShelfGetQuery,
  UploadForm,
  UserDayData,
  UserDayQuery,
  WordCloudItem,
} from '@readlib/contracts';
import type { RouteCalls } from './route-client.js';

export const readerRouteCalls = {
  getHome: {"method":"GET","url":"/book/home/v2","input":"query","reply":{"data":"HomeData"}},
  getRecommendBatch: {"method":"GET","url":"/book/home/recommend/v2","reply":{"data":"BookSummary[]"}},
  getFreeReadBatch: {"method":"GET","url":"/book/home/freeRead/v2","reply":{"data":"BookSummary[]"}},
  getHotBookBatch: {"method":"GET","url":"/book/home/hotBook/v2","reply":{"data":"BookSummary[]"}},
  getHotSearch: {"method":"GET","url":"/book/hot-search","reply":{"data":"HotSearchItem[]"}},
  listCategories: {"method":"GET","url":"/book/category/list/v2","reply":{"data":"CategoryItem[]"}},
  searchBooks: {"method":"GET","url":"/book/search","input":"query","reply":{"data":"SearchResult"}},
  searchList: {"method":"GET","url":"/book/search-list","input":"query","reply":{"data":"BookSummary[]"}},
  getBookDetail: {"method":"GET","url":"/book/detail","input":"query","reply":{"data":"BookDetail"}},
  getBookContents: {"method":"GET","url":"/book/contents","input":"query","reply":{"data":"BookContents"}},
  saveRank: {"method":"GET","url":"/book/rank/save","input":"query","reply":{"ack":true}},
  getShelf: {"method":"GET","url":"/book/shelf/get","input":"query","reply":{"data":"ShelfEntry[]"}},
  saveShelf: {"method":"GET","url":"/book/shelf/save","input":"query","reply":{"ack":true}},
  removeShelf: {"method":"GET","url":"/book/shelf/remove","input":"query","reply":{"ack":true}},
  registerUser: {"method":"POST","url":"/user/register","input":"body","reply":{"ack":true}},
  getUserDay: {"method":"GET","url":"/user/day","input":"query","reply":{"data":"UserDayData"}},
  getWechatOpenId: {"method":"GET","url":"/openId/get","input":"query","reply":{"data":"OpenIdData"}},
  getPayPlatformOpenId: {"method":"GET","url":"/openId/get/payplatform","input":"query","reply":{"data":"OpenIdData"}},
  getAlipayOpenId: {"method":"GET","url":"/openId/get/alipay","input":"query","reply":{"data":"OpenIdData"}},
  getOpdsRoot: {"method":"GET","url":"/opds","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=navigation"]}},
  getOpdsNewBooks: {"method":"GET","url":"/opds/new","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=acquisition"]}},
  getOpdsPopularBooks: {"method":"GET","url":"/opds/popular","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=acquisition"]}},
  getOpdsCategories: {"method":"GET","url":"/opds/categories","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=navigation"]}},
  getOpdsCategoryBooks: {"method":"GET","url":"/opds/category","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=acquisition"]}},
  getOpdsAuthors: {"method":"GET","url":"/opds/authors","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=navigation"]}},
  getOpdsAuthorBooks: {"method":"GET","url":"/opds/author","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=acquisition"]}},
  getOpdsPublishers: {"method":"GET","url":"/opds/publishers","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=navigation"]}},
  getOpdsPublisherBooks: {"method":"GET","url":"/opds/publisher","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=acquisition"]}},
  searchOpds: {"method":"GET","url":"/opds/search","input":"query","reply":{"document":["application/atom+xml;profile=opds-catalog;kind=acquisition"]}},
  getOpdsPublication: {"method":"GET","url":"/opds/publication","input":"query","reply":{"document":["application/atom+xml;type=entry;profile=opds-catalog"]}},
  getOpdsSearchDescription: {"method":"GET","url":"/opds/opensearch","reply":{"document":["application/opensearchdescription+xml"]}},
  getOpds2Root: {"method":"GET","url":"/opds/v2","reply":{"document":["application/opds+json"]}},
  getOpds2NewBooks: {"method":"GET","url":"/opds/v2/new","input":"query","reply":{"document":["application/opds+json"]}},
  getOpds2PopularBooks: {"method":"GET","url":"/opds/v2/popular","input":"query","reply":{"document":["application/opds+json"]}},
  getOpds2Categories: {"method":"GET","url":"/opds/v2/categories","reply":{"document":["application/opds+json"]}},
  getOpds2CategoryBooks: {"method":"GET","url":"/opds/v2/category","input":"query","reply":{"document":["application/opds+json"]}},
  getOpds2Authors: {"method":"GET","url":"/opds/v2/authors","input":"query","reply":{"document":["application/opds+json"]}},
  getOpds2AuthorBooks: {"method":"GET","url":"/opds/v2/author","input":"query","reply":{"document":["application/opds+json"]}},
  getOpds2Publishers: {"method":"GET","url":"/opds/v2/publishers","input":"query","reply":{"document":["application/opds+json"]}},
  getOpds2PublisherBooks: {"method":"GET","url":"/opds/v2/publisher","input":"query","reply":{"document":["application/opds+json"]}},
  searchOpds2: {"method":"GET","url":"/opds/v2/search","input":"query","reply":{"document":["application/opds+json"]}},
  getOpds2Publication: {"method":"GET","url":"/opds/v2/publication","input":"query","reply":{"document":["application/opds-publication+json"]}},
  health: {"method":"GET","url":"/healthz","access":"public","reply":{"plain":"Health"}},
  ready: {"method":"GET","url":"/readyz","access":"public","reply":{"plain":"Ready","unavailable":true}},
} as const satisfies RouteCalls;

export const adminRouteCalls = {
  login: {"method":"POST","url":"/user/login","input":"body","access":"public","reply":{"data":"LoginData"}},
  getUserInfo: {"method":"GET","url":"/user/info","reply":{"data":"AdminUser"}},
  postUserInfo: {"method":"POST","url":"/user/info","reply":{"data":"AdminUser"}},
  logout: {"method":"POST","url":"/user/logout","reply":{"ack":true}},
  getDashboard: {"method":"GET","url":"/book/home","reply":{"data":"DashboardTotals"}},
  listBooks: {"method":"GET","url":"/book/list","input":"query","reply":{"page":"AdminBook"}},
  getBook: {"method":"GET","url":"/book/get","input":"query","reply":{"data":"AdminBookDetail"}},
  findSameBooks: {"method":"GET","url":"/book/same","input":"query","reply":{"data":"AdminBook[]"}},
  updateBook: {"method":"POST","url":"/book/update","input":"body","reply":{"ack":true}},
  deleteBook: {"method":"GET","url":"/book/delete","input":"query","reply":{"ack":true}},
  uploadBook: {"method":"POST","url":"/book/upload","input":"body","reply":{"data":"AdminBookDetail"}},
  createBook: {"method":"POST","url":"/book/create","input":"body","reply":{"ack":true}},
  listCategories: {"method":"GET","url":"/book/category","reply":{"data":"AdminCategory[]"}},
  getScreenData: {"method":"GET","url":"/screen/data","input":"query","reply":{"data":"ScreenData"}},
  getWordCloud: {"method":"GET","url":"/screen/wordcloud","input":"query","reply":{"data":"WordCloudItem[]"}},
  getScreenMap: {"method":"GET","url":"/screen/map","input":"query","reply":{"data":"MapItem[]"}},
  getScreenScatter: {"method":"GET","url":"/screen/map/scatter","input":"query","reply":{"data":"ScatterData"}},
  health: {"method":"GET","url":"/healthz","access":"public","reply":{"plain":"Health"}},
  ready: {"method":"GET","url":"/readyz","access":"public","reply":{"plain":"Ready","unavailable":true}},
} as const satisfies RouteCalls;

/**
 * Each reader route's input and result by the contracts' names, so that editors and declaration
 * emit name them (`Promise<HomeData>`) instead of spelling out their fields.
 */
export interface ReaderRouteTypes {
  /** GET /book/home/v2: Home page: shelf, recommendations, free reads, hot books, categories, banner */
  getHome: { input: HomeQuery; result: HomeData };
  /** GET /book/home/recommend/v2: Another batch of 3 well-rated or popular books */
  getRecommendBatch: { result: BookSummary[] };
  /** GET /book/home/freeRead/v2: Another batch of 4 books drawn from the catalogue */
  getFreeReadBatch: { result: BookSummary[] };
  /** GET /book/home/hotBook/v2: Another batch of 4 of the most viewed books */
  getHotBookBatch: { result: BookSummary[] };
  /** GET /book/hot-search: The 10 most viewed books of the last 30 days */
  getHotSearch: { result: HotSearchItem[] };
  /** GET /book/category/list/v2: Every non-empty category with its count and two covers */
  listCategories: { result: CategoryItem[] };
  /** GET /book/search: Search title, author, publisher and category name */
  searchBooks: { input: SearchQuery; result: SearchResult };
  /** GET /book/search-list: Books by publisher, author, category name or id (filters combine with AND) */
  searchList: { input: SearchListQuery; result: BookSummary[] };
  /** GET /book/detail: Book detail with readers and ratings; records a view for a registered openId */
  getBookDetail: { input: DetailQuery; result: BookDetail };
  /** GET /book/contents: Book detail plus its flat and nested table of contents */
  getBookContents: { input: ContentsQuery; result: BookContents };
  /** GET /book/rank/save: Rate a book 1 to 5; replaces the user's previous rating */
  saveRank: { input: RankSaveQuery; result: void };
  /** GET /book/shelf/get: The user's shelf, newest first; with fileName, the shelf status of that book */
  getShelf: { input: ShelfGetQuery; result: ShelfEntry[] };
  /** GET /book/shelf/save: Add a book to the shelf (idempotent) */
  saveShelf: { result: void };
  /** GET /book/shelf/remove: Remove a book from the shelf (absent entries succeed) */
  removeShelf: { result: void };
  /** POST /user/register: Register or update a reader profile (upsert keyed by openId) */
  registerUser: { input: RegisterBody; result: void };
  /** GET /user/day: Whole days since registration, the registration day being day 1 */
  getUserDay: { input: UserDayQuery; result: UserDayData };
  /** GET /openId/get: Exchange a messaging-platform (WeChat) login code for openid and session_key */
  getWechatOpenId: { input: OpenIdQuery; result: OpenIdData };
  /** GET /openId/get/payplatform: Exchange a payment-platform (Alipay) auth code for "<user id>|<platform user id>" and a token */
  getPayPlatformOpenId: { input: PayOpenIdQuery; result: OpenIdData };
  /** GET /openId/get/alipay: Exchange a payment-platform (Alipay) auth code for "<user id>|<platform user id>" and a token */
  getAlipayOpenId: { input: PayOpenIdQuery; result: OpenIdData };
  /** GET /opds: OPDS 1.2 catalogue root: new, popular, categories, authors, publishers, search */
  getOpdsRoot: { result: string };
  /** GET /opds/new: OPDS 1.2: every book, newest first, 20 a page */
  getOpdsNewBooks: { input: OpdsPageQuery; result: string };
  /** GET /opds/popular: OPDS 1.2: the hotBook ranking (most viewed of 30 days, then of all time) */
  getOpdsPopularBooks: { input: OpdsPageQuery; result: string };
  /** GET /opds/categories: OPDS 1.2: the categories with books */
  getOpdsCategories: { result: string };
  /** GET /opds/category: OPDS 1.2: a category's books, 20 a page */
  getOpdsCategoryBooks: { input: OpdsCategoryQuery; result: string };
  /** GET /opds/authors: OPDS 1.2: authors, most books first, 20 a page */
  getOpdsAuthors: { input: OpdsPageQuery; result: string };
  /** GET /opds/author: OPDS 1.2: the books of exactly this author */
  getOpdsAuthorBooks: { input: OpdsNameQuery; result: string };
  /** GET /opds/publishers: OPDS 1.2: publishers, most books first, 20 a page */
  getOpdsPublishers: { input: OpdsPageQuery; result: string };
  /** GET /opds/publisher: OPDS 1.2: the books of exactly this publisher */
  getOpdsPublisherBooks: { input: OpdsNameQuery; result: string };
  /** GET /opds/search: OPDS 1.2: the reader search (title, author, publisher, category name), 20 a page */
  searchOpds: { input: OpdsSearchQuery; result: string };
  /** GET /opds/publication: OPDS 1.2: one book as a complete entry */
  getOpdsPublication: { input: OpdsPublicationQuery; result: string };
  /** GET /opds/opensearch: OPDS 1.2: the OpenSearch description the feeds name for their search */
  getOpdsSearchDescription: { result: string };
  /** GET /opds/v2: OPDS 2.0 catalogue root: new, popular, categories, authors, publishers, search */
  getOpds2Root: { result: string };
  /** GET /opds/v2/new: OPDS 2.0: every book, newest first, 20 a page */
  getOpds2NewBooks: { input: OpdsPageQuery; result: string };
  /** GET /opds/v2/popular: OPDS 2.0: the hotBook ranking (most viewed of 30 days, then of all time) */
  getOpds2PopularBooks: { input: OpdsPageQuery; result: string };
  /** GET /opds/v2/categories: OPDS 2.0: the categories with books */
  getOpds2Categories: { result: string };
  /** GET /opds/v2/category: OPDS 2.0: a category's books, 20 a page */
  getOpds2CategoryBooks: { input: OpdsCategoryQuery; result: string };
  /** GET /opds/v2/authors: OPDS 2.0: authors, most books first, 20 a page */
  getOpds2Authors: { input: OpdsPageQuery; result: string };
  /** GET /opds/v2/author: OPDS 2.0: the books of exactly this author */
  getOpds2AuthorBooks: { input: OpdsNameQuery; result: string };
  /** GET /opds/v2/publishers: OPDS 2.0: publishers, most books first, 20 a page */
  getOpds2Publishers: { input: OpdsPageQuery; result: string };
  /** GET /opds/v2/publisher: OPDS 2.0: the books of exactly this publisher */
  getOpds2PublisherBooks: { input: OpdsNameQuery; result: string };
  /** GET /opds/v2/search: OPDS 2.0: the reader search (title, author, publisher, category name), 20 a page */
  searchOpds2: { input: OpdsSearchQuery; result: string };
  /** GET /opds/v2/publication: OPDS 2.0: one book as a publication */
  getOpds2Publication: { input: OpdsPublicationQuery; result: string };
  /** GET /healthz: Liveness: the process answers */
  health: { result: Health };
  /** GET /readyz: Readiness: the database (and Redis, when configured) answer; 503 when not */
  ready: { result: Ready };
}

/** Each admin route's input and result by the contracts' names (see ReaderRouteTypes). */
export interface AdminRouteTypes {
  /** POST /user/login: Exchange username and password for a Bearer token (JSON or URL-encoded body) */
  login: { input: LoginBody; result: LoginData };
  /** GET /user/info: Profile of the operator holding the token */
  getUserInfo: { result: AdminUser };
  /** POST /user/info: Profile of the operator holding the token */
  postUserInfo: { result: AdminUser };
  /** POST /user/logout: End the sessions of the operator holding the token: every token issued to that operator so far (other browsers' too) is refused from then on */
  logout: { result: void };
  /** GET /book/home: Catalogue totals */
  getDashboard: { result: DashboardTotals };
  /** GET /book/list: Page of e-books; sort is "+field" or "-field" */
  listBooks: { input: BookListQuery };
  /** GET /book/get: One e-book with its flat and nested table of contents */
  getBook: { input: OptionalFileNameQuery; result: AdminBookDetail };
  /** GET /book/same: The books with exactly this title, author and publisher: a create of such a book is refused (409) */
  findSameBooks: { input: BookIdentityQuery; result: AdminBook[] };
  /** POST /book/update: Change the fields sent (JSON or URL-encoded body) */
  updateBook: { input: BookUpdateBody; result: void };
  /** GET /book/delete: Delete an e-book with its contents, shelf entries, ratings, views and files */
  deleteBook: { input: FileNameQuery; result: void };
  /** POST /book/upload: Upload and parse an EPUB (multipart/form-data, field "file"); create it with POST /book/create */
  uploadBook: { input: UploadForm; result: AdminBookDetail };
  /** POST /book/create: Add an uploaded e-book (by its fileName) or a record with a download url to the catalogue */
  createBook: { input: BookCreateBody; result: void };
  /** GET /book/category: Categories as {label, value, num} */
  listCategories: { result: AdminCategory[] };
  /** GET /screen/data: Totals, today and yesterday, growth, trends, categories, top books and searches */
  getScreenData: { input: ScreenQuery; result: ScreenData };
  /** GET /screen/wordcloud: Search keywords of the window with searches and distinct searchers (at most 100) */
  getWordCloud: { input: ScreenQuery; result: WordCloudItem[] };
  /** GET /screen/map: Users registered in the window, per province */
  getScreenMap: { input: ScreenQuery; result: MapItem[] };
  /** GET /screen/map/scatter: Users registered in the window, per city, with coordinates of known cities */
  getScreenScatter: { input: ScreenQuery; result: ScatterData };
  /** GET /healthz: Liveness: the process answers */
  health: { result: Health };
  /** GET /readyz: Readiness: the database (and Redis, when configured) answer; 503 when not */
  ready: { result: Ready };
}
