export { epubWithPackage, HOSTILE_KINDS, type HostileKind, makeHostileZip } from './hostile-zip.js';
export { type ChapterSpec, containerXml, type MakeEpubOptions, makeEpub, TINY_PNG } from './make-epub.js';
export { type RawZipEntry, writeZip } from './zip-writer.js';
