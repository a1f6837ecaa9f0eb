// The contracts' static types the clients take and return, as aliases of @readlib/contracts.
// Aliases rather than a re-export: each contract name there is a schema value and a type, and the
// published declaration bundle must export the types only (the schemas are not in the package).
import type * as Contracts from '@readlib/contracts';
import type { BookListSortField } from '@readlib/contracts/routes';

export type AdminBook = Contracts.AdminBook;
export type AdminBookDetail = Contracts.AdminBookDetail;
export type AdminCategory = Contracts.AdminCategory;
export type AdminUser = Contracts.AdminUser;
export type Banner = Contracts.Banner;
export type BookContents = Contracts.BookContents;
export type BookCreateBody = Contracts.BookCreateBody;
export type BookDetail = Contracts.BookDetail;
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
export type BookSummary = Contracts.BookSummary;
export type BookUpdateBody = Contracts.BookUpdateBody;
export type CategoryItem = Contracts.CategoryItem;
export type ContentsEntry = Contracts.ContentsEntry;
export type ContentsNode = Contracts.ContentsNode;
export type ContentsQuery = Contracts.ContentsQuery;
export type DashboardTotals = Contracts.DashboardTotals;
export type DetailQuery = Contracts.DetailQuery;
export type ErrorKind = Contracts.ErrorKind;
export type FileNameQuery = Contracts.FileNameQuery;
export type Health = Contracts.Health;
export type HomeData = Contracts.HomeData;
export type HomeQuery = Contracts.HomeQuery;
export type HotSearch = Contracts.HotSearch;
export type HotSearchItem = Contracts.HotSearchItem;
export type LoginData = Contracts.LoginData;
export type MapItem = Contracts.MapItem;
export type OpenIdData = Contracts.OpenIdData;
export type OpenIdQuery = Contracts.OpenIdQuery;
export type OptionalFileNameQuery = Contracts.OptionalFileNameQuery;
export type PayOpenIdQuery = Contracts.PayOpenIdQuery;
export type RankSaveQuery = Contracts.RankSaveQuery;
export type Reader = Contracts.Reader;
export type Ready = Contracts.Ready;
export type RegisterBody = Contracts.RegisterBody;
export type ScatterData = Contracts.ScatterData;
export type ScreenData = Contracts.ScreenData;
export type ScreenQuery = Contracts.ScreenQuery;
export type SearchAuthor = Contracts.SearchAuthor;
export type SearchCategory = Contracts.SearchCategory;
export type SearchListQuery = Contracts.SearchListQuery;
export type SearchPublisher = Contracts.SearchPublisher;
export type SearchQuery = Contracts.SearchQuery;
export type SearchResult = Contracts.SearchResult;
export type ShelfEntry = Contracts.ShelfEntry;
export type ShelfGetQuery = Contracts.ShelfGetQuery;
export type ShelfParam = Contracts.ShelfParam;
export type UserDayData = Contracts.UserDayData;
export type UserDayQuery = Contracts.UserDayQuery;
export type WordCloudItem = Contracts.WordCloudItem;
