import type { UploadProgress } from '@readlib/sdk';
import { fileSize } from './file-size';

/** What the upload's bar shows: a whole percentage (100 only once every byte is sent) and the bytes. */
export interface ProgressView {
  percent: number;
  loaded: string;
  total: string;
}

export function progressView({ loaded, total }: UploadProgress): ProgressView {
  const percent = total > 0 ? Math.min(100, Math.floor((loaded * 100) / total)) : 0;
  return { percent, loaded: fileSize(loaded), total: fileSize(total) };
}
