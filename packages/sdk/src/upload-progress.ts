import type { ProgressReporter, UploadProgress } from './transport.types.js';

const count = (n: unknown): number | undefined =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;

/**
 * Reports to the caller's `onProgress` counts that only grow, each at most `total`. A count without a
 * total (a body of unknown length) takes `size`; the end is the last total seen, else `size`, and is
 * left out when neither is known (a local file no platform event described).
 */
export function progressReporter(
  onProgress: (progress: UploadProgress) => void,
  size: number | undefined,
): ProgressReporter {
  let last: UploadProgress | undefined;
  const tell = (progress: UploadProgress) => {
    last = progress;
    try {
      onProgress(progress);
    } catch (err) {
      // a listener's bug must not fail the upload; it still surfaces, as an uncaught error
      setTimeout(() => {
        throw err;
      });
    }
  };
  return {
    report(progress) {
      const total = count(progress?.total) || size;
      const sent = count(progress?.loaded);
      if (total === undefined || sent === undefined) return;
      const loaded = Math.min(sent, total);
      if (last && (loaded < last.loaded || (loaded === last.loaded && total === last.total))) return;
      tell({ loaded, total });
    },
    finish() {
      const total = last?.total ?? size;
      if (total === undefined || (last && last.loaded === last.total)) return;
      tell({ loaded: total, total });
    },
  };
}
