import type { Static, TSchema } from '@sinclair/typebox';
import {
  AdminBook,
  AdminBookDetail,
  AdminCategory,
  BookListQuery,
  FileNameQuery,
  OptionalFileNameQuery,
} from './admin-book.schema.js';
import { BookCreateBody, BookUpdateBody, UploadForm } from './admin-book-body.schema.js';
import { AdminUser, DashboardTotals, LoginBody, LoginData } from './admin-user.schema.js';
import { BookDetail, BookSummary, Reader } from './book.schema.js';
import { ContentsQuery, DetailQuery, RankSaveQuery } from './book-query.schema.js';
import { BookContents, ContentsEntry, ContentsNode, ContentsTree } from './contents.schema.js';
import { AdminError, ReaderError } from './envelope.schema.js';
import { Health, Ready } from './health.schema.js';
import { Banner, CategoryItem, HomeData, HomeQuery, HotSearch, HotSearchItem } from './home.schema.js';
import {
  OpdsCategoryQuery,
  OpdsNameQuery,
  OpdsPageQuery,
  OpdsPublicationQuery,
  OpdsSearchQuery,
} from './opds.schema.js';
import { MapItem, ScatterData, ScreenData, ScreenQuery, WordCloudItem } from './screen.schema.js';
import {
  SearchAuthor,
  SearchCategory,
  SearchListQuery,
  SearchPublisher,
  SearchQuery,
  SearchResult,
} from './search.schema.js';
import { ShelfEntry, ShelfGetQuery, ShelfMutateQuery, ShelfParam } from './shelf.schema.js';
import {
  OpenIdData,
  OpenIdQuery,
  PayOpenIdQuery,
  RegisterBody,
  UserDayData,
  UserDayQuery,
} from './user.schema.js';

/**
 * Every schema with an `$id`, by that id (its export name), referenced schemas before their users.
 * The route table names schemas by these keys; the services register them all for `$ref`.
 */
export const contractSchemaMap = {
  // envelopes and health
  ReaderError,
  AdminError,
  Health,
  Ready,
  // reader resources
  BookSummary,
  Reader,
  BookDetail,
  ContentsEntry,
  ContentsNode,
  ContentsTree,
  BookContents,
  ShelfEntry,
  CategoryItem,
  HotSearch,
  Banner,
  HotSearchItem,
  HomeData,
  SearchAuthor,
  SearchCategory,
  SearchPublisher,
  SearchResult,
  OpenIdData,
  UserDayData,
  // reader inputs
  HomeQuery,
  SearchQuery,
  SearchListQuery,
  DetailQuery,
  ContentsQuery,
  ShelfGetQuery,
  ShelfMutateQuery,
  ShelfParam,
  RankSaveQuery,
  UserDayQuery,
  OpenIdQuery,
  PayOpenIdQuery,
  RegisterBody,
  OpdsPageQuery,
  OpdsCategoryQuery,
  OpdsNameQuery,
  OpdsSearchQuery,
  OpdsPublicationQuery,
  // admin resources
  AdminBook,
  AdminBookDetail,
  AdminUser,
  AdminCategory,
  DashboardTotals,
  LoginData,
  // admin inputs
  LoginBody,
  BookListQuery,
  FileNameQuery,
  OptionalFileNameQuery,
  BookUpdateBody,
  BookCreateBody,
  UploadForm,
  // report and screen
  ScreenQuery,
  ScreenData,
  WordCloudItem,
  MapItem,
  ScatterData,
} as const;

/** The static type of each contract schema, by its `$id`. */
export type ContractTypes = { [K in keyof typeof contractSchemaMap]: Static<(typeof contractSchemaMap)[K]> };

/**
 * Every schema with an `$id`, referenced schemas before their users: register them all with
 * `fastify.addSchema` (or pass them as references to `Value.Check`/`TypeCompiler.Compile`).
 */
export const contractSchemas: TSchema[] = Object.values(contractSchemaMap);
