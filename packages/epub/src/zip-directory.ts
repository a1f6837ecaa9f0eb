import { EpubError } from './errors.js';

const EOCD_SIGNATURE = 0x06054b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;

export interface CentralDirectoryInfo {
  entryCount: number;
}

/**
 * Reads the end-of-central-directory record ourselves before adm-zip sees the buffer, so that a
 * directory announcing millions of entries is refused before any per-entry object is created.
 */
export function readCentralDirectoryInfo(buf: Buffer): CentralDirectoryInfo {
  if (buf.length < 4 || buf.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    // An empty archive (EOCD only) is a zip, but never an EPUB.
    throw new EpubError('NOT_A_ZIP', 'the file is not a ZIP archive (an EPUB is a ZIP file)');
  }
  const stop = Math.max(0, buf.length - EOCD_MIN - MAX_COMMENT);
  for (let i = buf.length - EOCD_MIN; i >= stop; i--) {
    if (buf.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    const commentLength = buf.readUInt16LE(i + 20);
    if (i + EOCD_MIN + commentLength > buf.length) continue;
    const entryCount = buf.readUInt16LE(i + 10);
    const cdSize = buf.readUInt32LE(i + 12);
    const cdOffset = buf.readUInt32LE(i + 16);
    if (entryCount === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      throw new EpubError(
        'TOO_MANY_ENTRIES',
        'ZIP64 archives (over 65,535 entries or 4 GiB) are not accepted as EPUBs',
      );
    }
    if (cdOffset + cdSize > i)
      throw new EpubError('CORRUPT_ZIP', 'the ZIP central directory lies outside the file');
    return { entryCount };
  }
  throw new EpubError('CORRUPT_ZIP', 'the ZIP archive is truncated or corrupt (no end of central directory)');
}
