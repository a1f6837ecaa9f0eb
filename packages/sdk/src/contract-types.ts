// The contracts' static types the clients take and return, re-exported from @readlib/contracts under
// their own names, so that editors and declaration emit in a front end's project name them as the SDK
// exports them. `export type`: each contract name there is a schema value and a type, and the package
// exports the types only (the schemas are not in its JavaScript).
import type * as Contracts from '@readlib/contracts';
import type { BookListSortField } from '@readlib/contracts/routes';

export type {
  AdminBook,
  AdminBookDetail,
  AdminCategory,
  AdminUser,
  Banner,
  BookContents,
  BookCreateBody,
  BookDetail,
  BookIdentityQuery,
  BookSummary,
  BookUpdateBody,
  CategoryItem,
  ContentsEntry,
  ContentsNode,
  ContentsQuery,
  DashboardTotals,
  DetailQuery,
  ErrorKind,
  FileNameQuery,
  Health,
  HomeData,
  HomeQuery,
  HotSearch,
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
  Reader,
  Ready,
  RegisterBody,
  ScatterData,
  ScreenData,
  ScreenQuery,
  SearchAuthor,
  SearchCategory,
  SearchListQuery,
  SearchPublisher,
  SearchQuery,
  SearchResult,
  ShelfEntry,
  ShelfGetQuery,
  ShelfParam,
  UploadForm,
  UserDayData,
  UserDayQuery,
  WordCloudItem,
} from '@readlib/contracts';

/**
 * GET /book/list query (`listBooks`): the contract's, with `sort` narrowed from a string to what the
 * service sorts by (`BookListSort`), so a wrong field does not compile. The OpenAPI document keeps a
 * string with a pattern: the service answers an unknown field with 400 / `failure`.
 */
export type BookListQuery = {
  [K in keyof Contracts.BookListQuery]: K extends 'sort' ? BookListSort : Contracts.BookListQuery[K];
};
/**
 * The `sort` of `listBooks`: a field of `BOOK_LIST_SORT_FIELDS`, `-field` descending, `+field` or the
 * bare field ascending (the service's parser; default `-id`).
 */
export type BookListSort = `${'' | '+' | '-'}${BookListSortField}`;
