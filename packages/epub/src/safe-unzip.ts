import zlib from 'node:zlib';
import AdmZip from 'adm-zip';
import { EpubError } from './errors.js';
import { type EpubLimits, RATIO_CHECK_MIN_BYTES } from './limits.js';
import { readCentralDirectoryInfo } from './zip-directory.js';
import { assertNotSymlink, assertSafeEntryName } from './zip-entry.guard.js';

export interface SafeEntry {
  name: string;
  isDirectory: boolean;
  size: number;
  compressedSize: number;
}

const STORED = 0;
const DEFLATED = 8;

/**
 * A ZIP archive whose central directory has been checked entry by entry (paths, symlinks,
 * encryption, declared sizes, ratios) before anything is inflated.
 *
 * Why adm-zip and not a streaming reader: EPUBs arrive as one upload buffer anyway, and we never let
 * adm-zip inflate. `read()` takes the raw compressed bytes and inflates them with zlib's
 * `maxOutputLength` set to the entry's declared size, which was itself checked against the limits.
 * So a lying header cannot make us allocate more than `maxEntryUncompressed`, and the bytes actually
 * produced are counted against `maxTotalUncompressed`. Peak memory is one archive plus one entry.
 */
export class SafeZip {
  private readonly zip: AdmZip;
  private readonly byName = new Map<string, AdmZip.IZipEntry>();
  private readonly byLowerName = new Map<string, string>();
  private inflatedTotal = 0;
  private readonly counted = new Set<string>();
  readonly entries: SafeEntry[] = [];

  constructor(
    buf: Buffer,
    private readonly limits: EpubLimits,
  ) {
    if (buf.length > limits.maxArchiveBytes) {
      throw new EpubError(
        'TOO_LARGE',
        `the archive is ${buf.length} bytes, over the ${limits.maxArchiveBytes} limit`,
      );
    }
    const { entryCount } = readCentralDirectoryInfo(buf);
    if (entryCount > limits.maxEntries) {
      throw new EpubError(
        'TOO_MANY_ENTRIES',
        `the archive has ${entryCount} entries, over the ${limits.maxEntries} limit`,
      );
    }
    try {
      this.zip = new AdmZip(buf, { noSort: true });
    } catch (err) {
      throw new EpubError('CORRUPT_ZIP', `the ZIP archive is corrupt: ${(err as Error).message}`, {
        cause: err,
      });
    }
    let list: AdmZip.IZipEntry[];
    try {
      list = this.zip.getEntries();
    } catch (err) {
      throw new EpubError('CORRUPT_ZIP', `the ZIP directory is corrupt: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (list.length > limits.maxEntries) {
      throw new EpubError(
        'TOO_MANY_ENTRIES',
        `the archive has ${list.length} entries, over the ${limits.maxEntries} limit`,
      );
    }
    let declaredTotal = 0;
    for (const entry of list) {
      const name = entry.entryName;
      this.checkEntry(entry);
      declaredTotal += entry.header.size;
      if (declaredTotal > limits.maxTotalUncompressed) {
        throw new EpubError(
          'TOO_LARGE',
          `the archive unpacks to more than ${limits.maxTotalUncompressed} bytes`,
        );
      }
      if (this.byName.has(name))
        throw new EpubError('UNSAFE_PATH', `archive entry ${JSON.stringify(name)} appears twice`);
      this.byName.set(name, entry);
      if (!this.byLowerName.has(name.toLowerCase())) this.byLowerName.set(name.toLowerCase(), name);
      const { size, compressedSize } = entry.header;
      this.entries.push({ name, isDirectory: entry.isDirectory, size, compressedSize });
    }
  }

  private checkEntry(entry: AdmZip.IZipEntry): void {
    const name = entry.entryName;
    const { size, compressedSize, flags, method, attr } = entry.header;
    assertSafeEntryName(name);
    assertNotSymlink(name, attr);
    if (flags & 1) throw new EpubError('ENCRYPTED', `archive entry ${JSON.stringify(name)} is encrypted`);
    if (method !== STORED && method !== DEFLATED) {
      throw new EpubError(
        'CORRUPT_ZIP',
        `archive entry ${JSON.stringify(name)} uses unsupported compression ${method}`,
      );
    }
    if (size > this.limits.maxEntryUncompressed) {
      throw new EpubError(
        'ENTRY_TOO_LARGE',
        `archive entry ${JSON.stringify(name)} unpacks to ${size} bytes, over the ${this.limits.maxEntryUncompressed} limit`,
      );
    }
    if (
      size >= RATIO_CHECK_MIN_BYTES &&
      size / Math.max(compressedSize, 1) > this.limits.maxCompressionRatio
    ) {
      throw new EpubError(
        'COMPRESSION_RATIO',
        `archive entry ${JSON.stringify(name)} compresses ${Math.round(size / Math.max(compressedSize, 1))}:1, over the ${this.limits.maxCompressionRatio}:1 limit (zip bomb?)`,
      );
    }
  }

  has(name: string): boolean {
    return this.resolveName(name) !== undefined;
  }

  /** Exact entry name, else a case-insensitive match (books made on Windows/macOS get case wrong). */
  resolveName(name: string): string | undefined {
    if (this.byName.has(name)) return name;
    return this.byLowerName.get(name.toLowerCase());
  }

  /** Inflates one entry, refusing any that produce more bytes than declared or fail their CRC. */
  read(name: string): Buffer {
    const actual = this.resolveName(name);
    const entry = actual === undefined ? undefined : this.byName.get(actual);
    if (!entry || entry.isDirectory) throw new Error(`no such archive entry: ${name}`);
    const { size, method, crc } = entry.header;
    let raw: Buffer;
    try {
      raw = entry.getCompressedData();
    } catch (err) {
      throw new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(name)} is unreadable`, {
        cause: err,
      });
    }
    let data: Buffer;
    if (method === STORED) {
      data = raw;
    } else {
      try {
        data = size === 0 ? Buffer.alloc(0) : zlib.inflateRawSync(raw, { maxOutputLength: size });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
          throw new EpubError(
            'ENTRY_TOO_LARGE',
            `archive entry ${JSON.stringify(name)} inflates beyond its declared size`,
          );
        }
        throw new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(name)} is corrupt`, {
          cause: err,
        });
      }
    }
    if (data.length !== size) {
      throw new EpubError(
        'CORRUPT_ZIP',
        `archive entry ${JSON.stringify(name)} is not the size its header declares`,
      );
    }
    if (zlib.crc32(data) >>> 0 !== crc >>> 0) {
      throw new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(name)} fails its CRC check`);
    }
    // Belt and braces: with sizes equal to their checked declarations this cannot trip, but it keeps
    // the total bounded by bytes really produced should the declared-size checks ever be loosened.
    if (!this.counted.has(entry.entryName)) {
      this.counted.add(entry.entryName);
      this.inflatedTotal += data.length;
      if (this.inflatedTotal > this.limits.maxTotalUncompressed) {
        throw new EpubError(
          'TOO_LARGE',
          `the archive unpacks to more than ${this.limits.maxTotalUncompressed} bytes`,
        );
      }
    }
    return data;
  }

  /** Bytes actually inflated so far; callers reading everything compare it with the limit too. */
  get totalInflated(): number {
    return this.inflatedTotal;
  }
}
