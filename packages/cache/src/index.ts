export { BoundedMap } from './bounded-map.js';
export { Derived } from './derived.js';
export { Keep, type KeepSpec } from './keep.js';
export { SharedKeep, type SharedKeepSpec } from './shared-keep.js';
export { RedisStore, type SharedStore } from './shared-store.js';
export { type KeepDescription, type VersionListener, Versions } from './versions.js';
