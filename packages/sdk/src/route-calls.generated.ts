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
  getHome: { input: HomeQuery; result: HomeData };
  getRecommendBatch: { result: BookSummary[] };
  getFreeReadBatch: { result: BookSummary[] };
  getHotBookBatch: { result: BookSummary[] };
  getHotSearch: { result: HotSearchItem[] };
  listCategories: { result: CategoryItem[] };
  searchBooks: { input: SearchQuery; result: SearchResult };
  searchList: { input: SearchListQuery; result: BookSummary[] };
  getBookDetail: { input: DetailQuery; result: BookDetail };
  getBookContents: { input: ContentsQuery; result: BookContents };
  saveRank: { input: RankSaveQuery; result: void };
  getShelf: { input: ShelfGetQuery; result: ShelfEntry[] };
  saveShelf: { result: void };
  removeShelf: { result: void };
  registerUser: { input: RegisterBody; result: void };
  getUserDay: { input: UserDayQuery; result: UserDayData };
  getWechatOpenId: { input: OpenIdQuery; result: OpenIdData };
  getPayPlatformOpenId: { input: PayOpenIdQuery; result: OpenIdData };
  getAlipayOpenId: { input: PayOpenIdQuery; result: OpenIdData };
  getOpdsRoot: { result: string };
  getOpdsNewBooks: { input: OpdsPageQuery; result: string };
  getOpdsPopularBooks: { input: OpdsPageQuery; result: string };
  getOpdsCategories: { result: string };
  getOpdsCategoryBooks: { input: OpdsCategoryQuery; result: string };
  getOpdsAuthors: { input: OpdsPageQuery; result: string };
  getOpdsAuthorBooks: { input: OpdsNameQuery; result: string };
  getOpdsPublishers: { input: OpdsPageQuery; result: string };
  getOpdsPublisherBooks: { input: OpdsNameQuery; result: string };
  searchOpds: { input: OpdsSearchQuery; result: string };
  getOpdsPublication: { input: OpdsPublicationQuery; result: string };
  getOpdsSearchDescription: { result: string };
  getOpds2Root: { result: string };
  getOpds2NewBooks: { input: OpdsPageQuery; result: string };
  getOpds2PopularBooks: { input: OpdsPageQuery; result: string };
  getOpds2Categories: { result: string };
  getOpds2CategoryBooks: { input: OpdsCategoryQuery; result: string };
  getOpds2Authors: { input: OpdsPageQuery; result: string };
  getOpds2AuthorBooks: { input: OpdsNameQuery; result: string };
  getOpds2Publishers: { input: OpdsPageQuery; result: string };
  getOpds2PublisherBooks: { input: OpdsNameQuery; result: string };
  searchOpds2: { input: OpdsSearchQuery; result: string };
  getOpds2Publication: { input: OpdsPublicationQuery; result: string };
  health: { result: Health };
  ready: { result: Ready };
}

/** Each admin route's input and result by the contracts' names (see ReaderRouteTypes). */
export interface AdminRouteTypes {
  login: { input: LoginBody; result: LoginData };
  getUserInfo: { result: AdminUser };
  postUserInfo: { result: AdminUser };
  logout: { result: void };
  getDashboard: { result: DashboardTotals };
  listBooks: { input: BookListQuery };
  getBook: { input: OptionalFileNameQuery; result: AdminBookDetail };
  findSameBooks: { input: BookIdentityQuery; result: AdminBook[] };
  updateBook: { input: BookUpdateBody; result: void };
  deleteBook: { input: FileNameQuery; result: void };
  uploadBook: { input: UploadForm; result: AdminBookDetail };
  createBook: { input: BookCreateBody; result: void };
  listCategories: { result: AdminCategory[] };
  getScreenData: { input: ScreenQuery; result: ScreenData };
  getWordCloud: { input: ScreenQuery; result: WordCloudItem[] };
  getScreenMap: { input: ScreenQuery; result: MapItem[] };
  getScreenScatter: { input: ScreenQuery; result: ScatterData };
  health: { result: Health };
  ready: { result: Ready };
}
