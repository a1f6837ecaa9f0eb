import { EpubError } from './errors.js';

export interface EpubLimits {
  /** Size of the archive file itself. */
  maxArchiveBytes: number;
  maxEntries: number;
  /** Sum of the uncompressed sizes of all entries (declared and actually inflated). */
  maxTotalUncompressed: number;
  maxEntryUncompressed: number;
  /** Uncompressed / compressed, checked for entries above RATIO_CHECK_MIN_BYTES. */
  maxCompressionRatio: number;
  /**
   * Sum of the uncompressed sizes / size of the archive, checked when the sum is above
   * ARCHIVE_RATIO_MIN_BYTES. Entries under 1 MiB escape maxCompressionRatio, so without it 512 of them
   * at 1,000:1 unpacked 512 MiB (to disk, when a book is stored) from an upload of about 0.5 MB. Real
   * books unpack to 1-4 times their archive.
   */
  maxArchiveRatio: number;
  /**
   * Sum of the XML documents parsed for one book (package, navigation, NCX, cover pages). Each is at
   * most MAX_XML_DOCUMENT_BYTES, but parsing is synchronous (~0.4 s per MiB here): eight documents just
   * under that limit held the admin service for 12 s. Real books parse well under 2 MiB in all.
   */
  maxXmlBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<EpubLimits> = Object.freeze({
  maxArchiveBytes: 256 * MiB,
  maxEntries: 10_000,
  maxTotalUncompressed: 512 * MiB,
  maxEntryUncompressed: 128 * MiB,
  maxCompressionRatio: 200,
  maxArchiveRatio: 50,
  maxXmlBytes: 8 * MiB,
});

/**
 * Small files (CSS, repetitive XHTML) legitimately compress far beyond 200:1 relative to their
 * few-byte deflate output; only large entries can hurt, so the ratio is checked above this size.
 */
export const RATIO_CHECK_MIN_BYTES = 1 * MiB;

/** Any archive may unpack to this much whatever its own size (maxArchiveRatio applies above it). */
export const ARCHIVE_RATIO_MIN_BYTES = 16 * MiB;

export function resolveLimits(limits?: Partial<EpubLimits>): EpubLimits {
  const merged = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof EpubLimits)[]) {
    const value = limits?.[key];
    if (value !== undefined) {
      if (!Number.isFinite(value) || value <= 0)
        throw new RangeError(`EpubLimits.${key} must be a positive number`);
      merged[key] = value;
    }
  }
  return merged;
}

/** Refuses an archive of `size` bytes over `maxArchiveBytes`, from its size, before any of it is read. */
export function assertArchiveSize(size: number, limits: EpubLimits): void {
  if (size > limits.maxArchiveBytes) {
    throw new EpubError(
      'TOO_LARGE',
      `the archive is ${size} bytes, over the ${limits.maxArchiveBytes} limit`,
    );
  }
}
