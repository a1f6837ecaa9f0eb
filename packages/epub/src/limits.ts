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
  maxXmlBytes: 8 * MiB,
});

/**
 * Small files (CSS, repetitive XHTML) legitimately compress far beyond 200:1 relative to their
 * few-byte deflate output; only large entries can hurt, so the ratio is checked above this size.
 */
export const RATIO_CHECK_MIN_BYTES = 1 * MiB;

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
