export * from './admin-book.schema.js';
export * from './admin-book-body.schema.js';
export * from './admin-user.schema.js';
export * from './app-error.js';
export * from './book.schema.js';
export * from './book-query.schema.js';
export { BookContents, ContentsEntry, ContentsNode, ContentsTree } from './contents.schema.js';
export * from './envelope.schema.js';
export * from './error-codes.js';
export {
  DEFAULT_PLATFORM,
  MaxLength,
  PAGE_DEFAULT,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  RANK_MAX,
  RANK_MIN,
  READERS_MAX,
  ref,
  SCREEN_DAYS_DEFAULT,
  SCREEN_DAYS_MAX,
} from './fields.js';
export * from './health.schema.js';
export * from './home.schema.js';
export * from './opds.schema.js';
export * from './opds-media.js';
export { type ContractTypes, contractSchemaMap, contractSchemas } from './registry.js';
export * from './routes/index.js';
export * from './screen.schema.js';
export * from './search.schema.js';
export * from './shelf.schema.js';
export * from './user.schema.js';
