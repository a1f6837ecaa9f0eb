export * from './admin/index.js';
export * from './book.mapper.js';
export { BoundedMap } from './bounded-map.js';
export * from './cache/cache.js';
export { RedisCache, type RedisCacheOptions } from './cache/redis-cache.js';
export * from './paging.js';
export * from './reader/index.js';
export * from './urls.js';
