export * from './book.service.js';
export { CatalogMemo } from './catalog-memo.js';
export * from './home.service.js';
export { type PopularSet, PopularValuesMemo } from './popular-values.js';
export * from './reader-context.js';
export { sample } from './sample.js';
export * from './search.service.js';
export * from './shelf.service.js';
export * from './user.service.js';
