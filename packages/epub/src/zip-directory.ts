import { EpubError } from './errors.js';
import type { ZipSource } from './zip-source.js';

const EOCD_SIGNATURE = 0x06054b50;
const LOCAL_SIGNATURE = 0x04034b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
const CENTRAL_HEADER = 46;
export const LOCAL_HEADER = 30;

export interface CentralDirectoryInfo {
  entryCount: number;
  cdOffset: number;
  cdSize: number;
}

/** One central-directory record, as declared (nothing is trusted yet). */
export interface RawEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  externalAttr: number;
  localOffset: number;
}

/**
 * Reads the end-of-central-directory record ourselves, so that a directory announcing millions of
 * entries is refused before any per-entry object is created. Only the file's tail is read.
 */
export function readCentralDirectoryInfo(src: ZipSource): CentralDirectoryInfo {
  const head = src.read(0, 4);
  if (head.length < 4 || head.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    // An empty archive (EOCD only) is a zip, but never an EPUB.
    throw new EpubError('NOT_A_ZIP', 'the file is not a ZIP archive (an EPUB is a ZIP file)');
  }
  const tailStart = Math.max(0, src.size - EOCD_MIN - MAX_COMMENT);
  const buf = src.read(tailStart, src.size - tailStart);
  for (let j = buf.length - EOCD_MIN; j >= 0; j--) {
    if (buf.readUInt32LE(j) !== EOCD_SIGNATURE) continue;
    const commentLength = buf.readUInt16LE(j + 20);
    if (j + EOCD_MIN + commentLength > buf.length) continue;
    const entryCount = buf.readUInt16LE(j + 10);
    const cdSize = buf.readUInt32LE(j + 12);
    const cdOffset = buf.readUInt32LE(j + 16);
    if (entryCount === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      throw new EpubError(
        'TOO_MANY_ENTRIES',
        'ZIP64 archives (over 65,535 entries or 4 GiB) are not accepted as EPUBs',
      );
    }
    if (cdOffset + cdSize > tailStart + j)
      throw new EpubError('CORRUPT_ZIP', 'the ZIP central directory lies outside the file');
    return { entryCount, cdOffset, cdSize };
  }
  throw new EpubError('CORRUPT_ZIP', 'the ZIP archive is truncated or corrupt (no end of central directory)');
}

/** Parses `info.entryCount` central-directory records; any inconsistency is CORRUPT_ZIP. */
export function readCentralDirectory(src: ZipSource, info: CentralDirectoryInfo): RawEntry[] {
  const cd = src.read(info.cdOffset, info.cdSize);
  if (cd.length !== info.cdSize) throw new EpubError('CORRUPT_ZIP', 'the ZIP central directory is truncated');
  const entries: RawEntry[] = [];
  let p = 0;
  for (let i = 0; i < info.entryCount; i++) {
    if (p + CENTRAL_HEADER > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIGNATURE)
      throw new EpubError('CORRUPT_ZIP', 'the ZIP central directory is corrupt');
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const end = p + CENTRAL_HEADER + nameLength + extraLength + commentLength;
    if (end > cd.length) throw new EpubError('CORRUPT_ZIP', 'the ZIP central directory is corrupt');
    const compressedSize = cd.readUInt32LE(p + 20);
    const size = cd.readUInt32LE(p + 24);
    const localOffset = cd.readUInt32LE(p + 42);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff)
      throw new EpubError('TOO_LARGE', 'ZIP64 entries are not accepted in EPUBs');
    entries.push({
      name: entryName(
        cd.subarray(p + CENTRAL_HEADER, p + CENTRAL_HEADER + nameLength),
        cd.readUInt16LE(p + 8),
      ),
      flags: cd.readUInt16LE(p + 8),
      method: cd.readUInt16LE(p + 10),
      crc: cd.readUInt32LE(p + 16),
      compressedSize,
      size,
      externalAttr: cd.readUInt32LE(p + 38),
      localOffset,
    });
    p = end;
  }
  return entries;
}

/** General purpose bit 11: the name is UTF-8. */
const UTF8_NAME = 0x0800;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** CP437, the ZIP specification's default for names, from 0x80 (below: ASCII). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐' +
  '└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/**
 * An entry's name: UTF-8 when flagged so; else UTF-8 when the bytes are valid UTF-8 (many tools write
 * it without the flag), else CP437. Decoding every name as UTF-8 would turn invalid bytes into U+FFFD:
 * `\xff.txt` and `\xfe.txt` would become one name, refused as a duplicate. The decoded
 * name is the entry's name everywhere after: checks, lookups from the book's hrefs, files on disk.
 */
export function entryName(bytes: Buffer, flags: number): string {
  if (flags & UTF8_NAME) return bytes.toString('utf8');
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let name = '';
    for (const byte of bytes) name += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80];
    return name;
  }
}

/** Offset of an entry's data: after its local header, whose own name/extra lengths count. */
export function dataOffsetOf(src: ZipSource, entry: RawEntry, limit: number): number {
  const local = src.read(entry.localOffset, LOCAL_HEADER);
  if (local.length !== LOCAL_HEADER || local.readUInt32LE(0) !== LOCAL_SIGNATURE)
    throw new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(entry.name)} has no local header`);
  const start = entry.localOffset + LOCAL_HEADER + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (start + entry.compressedSize > limit)
    throw new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(entry.name)} lies outside the file`);
  return start;
}
