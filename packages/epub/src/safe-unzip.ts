import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { PassThrough, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { EpubError } from './errors.js';
import {
  ARCHIVE_RATIO_MIN_BYTES,
  assertArchiveSize,
  type EpubLimits,
  RATIO_CHECK_MIN_BYTES,
} from './limits.js';
import {
  dataOffsetOf,
  type RawEntry,
  readCentralDirectory,
  readCentralDirectoryInfo,
} from './zip-directory.js';
import { assertNotSymlink, assertSafeEntryName } from './zip-entry.guard.js';
import { bufferSource, fileSource, type ZipSource } from './zip-source.js';

export interface SafeEntry {
  name: string;
  isDirectory: boolean;
  size: number;
  compressedSize: number;
}

/** Entries up to this size are inflated in memory and written at once by `extractTo`. */
const SMALL_ENTRY = 1024 * 1024;
const STORED = 0;
const DEFLATED = 8;

/**
 * A ZIP archive whose central directory has been checked entry by entry (paths, symlinks,
 * encryption, declared sizes, ratios) before anything is inflated.
 *
 * The archive is a buffer or a file (read through one descriptor: an upload of 100 MB is never held
 * in memory). Our own directory reader, no third-party inflating: `read()` takes one entry's raw
 * compressed bytes and inflates them with zlib's `maxOutputLength` set to the entry's declared size,
 * itself checked against the limits; `extractTo()` inflates one entry straight to a file, counting
 * bytes and CRC as they pass and stopping at the declared size. So a lying header cannot make us
 * allocate or write more than `maxEntryUncompressed`, and bytes actually produced are counted against
 * `maxTotalUncompressed`. Peak memory: the central directory plus one entry (none when extracting).
 * Call `close()` when done with a file-backed archive.
 */
export class SafeZip {
  private readonly src: ZipSource;
  private readonly byName = new Map<string, RawEntry>();
  private readonly byLowerName = new Map<string, string>();
  private readonly dataLimit: number;
  private inflatedTotal = 0;
  private xmlParsed = 0;
  private readonly counted = new Set<string>();
  readonly entries: SafeEntry[] = [];

  /** `input`: the archive bytes, or the path of the archive file. */
  constructor(
    input: Buffer | string,
    private readonly limits: EpubLimits,
  ) {
    this.src = typeof input === 'string' ? fileSource(input) : bufferSource(input);
    try {
      this.dataLimit = this.open();
    } catch (err) {
      this.src.close();
      throw err;
    }
  }

  private open(): number {
    const { limits, src } = this;
    assertArchiveSize(src.size, limits);
    const info = readCentralDirectoryInfo(src);
    if (info.entryCount > limits.maxEntries) {
      throw new EpubError(
        'TOO_MANY_ENTRIES',
        `the archive has ${info.entryCount} entries, over the ${limits.maxEntries} limit`,
      );
    }
    const list = readCentralDirectory(src, info);
    let declaredTotal = 0;
    for (const entry of list) {
      const name = entry.name;
      this.checkEntry(entry);
      declaredTotal += entry.size;
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
      this.entries.push({
        name,
        isDirectory: name.endsWith('/'),
        size: entry.size,
        compressedSize: entry.compressedSize,
      });
    }
    assertNoFileIsAFolder(this.entries);
    const ratio = declaredTotal / Math.max(src.size, 1);
    if (declaredTotal > ARCHIVE_RATIO_MIN_BYTES && ratio > limits.maxArchiveRatio) {
      throw new EpubError(
        'COMPRESSION_RATIO',
        `the archive unpacks to ${Math.round(ratio)} times its size, over the ${limits.maxArchiveRatio}:1 limit (zip bomb?)`,
      );
    }
    // entry data lies before the central directory
    return info.cdOffset;
  }

  private checkEntry(entry: RawEntry): void {
    const { name, size, compressedSize, flags, method, externalAttr } = entry;
    assertSafeEntryName(name);
    assertNotSymlink(name, externalAttr);
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

  /** A file entry by that name (or case-insensitively): a folder is not a file to read or serve. */
  has(name: string): boolean {
    const actual = this.resolveName(name);
    return actual !== undefined && !actual.endsWith('/');
  }

  /** Exact entry name, else a case-insensitive match (books made on Windows/macOS get case wrong). */
  resolveName(name: string): string | undefined {
    if (this.byName.has(name)) return name;
    return this.byLowerName.get(name.toLowerCase());
  }

  private fileEntry(name: string): RawEntry {
    const actual = this.resolveName(name);
    const entry = actual === undefined ? undefined : this.byName.get(actual);
    if (!entry || entry.name.endsWith('/')) throw new Error(`no such archive entry: ${name}`);
    return entry;
  }

  /** Inflates one entry, refusing any that produce more bytes than declared or fail their CRC. */
  read(name: string): Buffer {
    const entry = this.fileEntry(name);
    const { size, method } = entry;
    const start = dataOffsetOf(this.src, entry, this.dataLimit);
    const raw = this.src.read(start, entry.compressedSize);
    let data: Buffer;
    if (method === STORED) {
      data = raw;
    } else {
      try {
        data = size === 0 ? Buffer.alloc(0) : zlib.inflateRawSync(raw, { maxOutputLength: size });
      } catch (err) {
        throw inflateError(name, err);
      }
    }
    this.checkInflated(entry, data.length, zlib.crc32(data));
    return data;
  }

  /**
   * Up to the first `max` bytes of an entry, inflating no more of it than `max` compressed bytes give
   * (a type is told from its head without inflating a large picture whole). Meant for entries already
   * verified; bytes that do not inflate give an empty head.
   */
  head(name: string, max: number): Buffer {
    const entry = this.fileEntry(name);
    const start = dataOffsetOf(this.src, entry, this.dataLimit);
    const raw = this.src.read(start, Math.min(entry.compressedSize, max));
    if (entry.method === STORED) return raw;
    try {
      return zlib.inflateRawSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).subarray(0, max);
    } catch {
      return Buffer.alloc(0);
    }
  }

  /** Size the entry's header declares: checked against the limits, and inflating must produce exactly it. */
  sizeOf(name: string): number {
    return this.fileEntry(name).size;
  }

  /**
   * Inflates one entry with every check of `read()`, handing its bytes to `onChunk` as they come: an
   * entry over SMALL_ENTRY is streamed on zlib's thread pool, one chunk in memory at a time (inflating a
   * 127 MiB entry whole held the admin service's event loop for about half a second and took 380 MB to
   * check its text). The bytes reach `onChunk` before the CRC is checked; it may throw to stop.
   */
  async verify(name: string, onChunk: (chunk: Buffer) => void = () => {}): Promise<void> {
    const entry = this.fileEntry(name);
    if (entry.size <= SMALL_ENTRY) {
      onChunk(this.read(name));
      return;
    }
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        try {
          onChunk(chunk);
          done();
        } catch (err) {
          done(err as Error);
        }
      },
    });
    await this.inflateInto(entry, sink);
  }

  /**
   * Inflates one entry straight into a new file at `target` (flag `wx`), never holding more than a
   * stream chunk; the same size, CRC and total checks as `read()`. On refusal the partial file stays
   * for the caller to remove (callers write into a temporary folder).
   */
  async extractTo(name: string, target: string): Promise<void> {
    const entry = this.fileEntry(name);
    if (entry.size <= SMALL_ENTRY) {
      // small entries: one synchronous inflate is cheaper than a stream pipeline, memory is bounded
      await writeFile(target, this.read(name), { flag: 'wx', mode: 0o644 });
      return;
    }
    await this.inflateInto(entry, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
  }

  /** Streams one entry through inflate into `sink`, counting bytes and CRC, stopping at the declared size. */
  private async inflateInto(entry: RawEntry, sink: Writable): Promise<void> {
    const name = entry.name;
    const start = dataOffsetOf(this.src, entry, this.dataLimit);
    let produced = 0;
    let crc = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        produced += chunk.length;
        if (produced > entry.size) return done(tooLarge(name));
        crc = zlib.crc32(chunk, crc);
        done(null, chunk);
      },
    });
    const inflate = entry.method === STORED ? new PassThrough() : zlib.createInflateRaw();
    try {
      await pipeline(this.src.stream(start, entry.compressedSize), inflate, counter, sink);
    } catch (err) {
      if (err instanceof EpubError) throw err;
      if ((err as NodeJS.ErrnoException).code?.startsWith('Z_'))
        throw new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(name)} is corrupt`, {
          cause: err,
        });
      throw err;
    }
    this.checkInflated(entry, produced, crc);
  }

  private checkInflated(entry: RawEntry, length: number, crc: number): void {
    const name = entry.name;
    if (length !== entry.size) {
      throw new EpubError(
        'CORRUPT_ZIP',
        `archive entry ${JSON.stringify(name)} is not the size its header declares`,
      );
    }
    if (crc >>> 0 !== entry.crc >>> 0) {
      throw new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(name)} fails its CRC check`);
    }
    // Belt and braces: with sizes equal to their checked declarations this cannot trip, but it keeps
    // the total bounded by bytes really produced should the declared-size checks ever be loosened.
    if (!this.counted.has(name)) {
      this.counted.add(name);
      this.inflatedTotal += length;
      if (this.inflatedTotal > this.limits.maxTotalUncompressed) {
        throw new EpubError(
          'TOO_LARGE',
          `the archive unpacks to more than ${this.limits.maxTotalUncompressed} bytes`,
        );
      }
    }
  }

  /** Counts an XML document about to be parsed against the book's `maxXmlBytes`; a refused one costs nothing. */
  spendOnXml(bytes: number, name: string): void {
    if (this.xmlParsed + bytes > this.limits.maxXmlBytes) {
      throw new EpubError(
        'TOO_LARGE',
        `${name} would take the XML parsed for this book over ${this.limits.maxXmlBytes} bytes`,
      );
    }
    this.xmlParsed += bytes;
  }

  /** Bytes actually inflated so far; callers reading everything compare it with the limit too. */
  get totalInflated(): number {
    return this.inflatedTotal;
  }

  /** Releases the file descriptor of a file-backed archive; idempotent. */
  close(): void {
    this.src.close();
  }
}

function inflateError(name: string, err: unknown): EpubError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) return tooLarge(name);
  return new EpubError('CORRUPT_ZIP', `archive entry ${JSON.stringify(name)} is corrupt`, { cause: err });
}

const tooLarge = (name: string) =>
  new EpubError('ENTRY_TOO_LARGE', `archive entry ${JSON.stringify(name)} inflates beyond its declared size`);

/** No name may be a file and a folder at once (`a/x` and `a/x/y`): it cannot be unpacked as both. */
/** Folders an archive may make when unpacked (real books: a handful; a comic, one per chapter). */
const MAX_FOLDERS = 2_000;

function assertNoFileIsAFolder(entries: ReadonlyArray<{ name: string; isDirectory: boolean }>): void {
  const folders = new Set<string>();
  for (const { name } of entries) {
    // longest prefix first, stopping at one already known (its parents are too): each folder is
    // built once, where rebuilding every prefix of every name was quadratic (44 s for deep names)
    for (let cut = name.lastIndexOf('/'); cut > 0; cut = name.lastIndexOf('/', cut - 1)) {
      const folder = name.slice(0, cut);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
    if (folders.size > MAX_FOLDERS)
      throw new EpubError(
        'TOO_MANY_ENTRIES',
        `archive has over ${MAX_FOLDERS} folders; unpacking it would make them all`,
      );
  }
  for (const { name, isDirectory } of entries) {
    if (!isDirectory && folders.has(name))
      throw new EpubError('UNSAFE_PATH', `archive entry ${JSON.stringify(name)} is both a file and a folder`);
  }
}
