export * from './admin/index.js';
export * from './book.mapper.js';
export * from './paging.js';
export * from './reader/index.js';
export * from './urls.js';
