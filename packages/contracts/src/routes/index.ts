export { BOOK_LIST_SORT_FIELDS, type BookListSortField } from '../book-list-sort.js';
export { type AdminRoutes, adminRoutes } from './admin.routes.js';
export { healthRoute, healthRoutes, readyRoute } from './health.routes.js';
export { type ReaderRoutes, readerRoutes } from './reader.routes.js';
export type {
  BodyMedia,
  BodyOf,
  QueryOf,
  Reply,
  ResultOf,
  RouteSpec,
  RouteTable,
  SchemaName,
  SchemaRef,
} from './route-spec.js';
