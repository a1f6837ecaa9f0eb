import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { AppError, invalid } from '@readlib/contracts';

import type { FastifyRequest } from 'fastify';

/** How long the file part may go on once the whole request body is in (only buffered bytes are left). */
const PART_END_GRACE_MS = 2_000;

/**
 * A body that ends inside the file part (no closing boundary) leaves the part's stream destroyed without
 * an error, so the copy would never settle and the upload would hang, holding its temp file open until
 * the process exits. Once the request has ended, the part must be copied soon after.
 */
function bodyEndsFirst(raw: IncomingMessage): { failed: Promise<never>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let onEnd = () => {};
  const failed = new Promise<never>((_, reject) => {
    onEnd = () => {
      const err = invalid('the upload ended inside the file: no closing multipart boundary');
      timer = setTimeout(() => reject(err), PART_END_GRACE_MS);
    };
  });
  failed.catch(() => {}); // settled by the race below, or never looked at
  if (raw.readableEnded) onEnd();
  else raw.once('end', onEnd);
  return {
    failed,
    stop: () => {
      raw.off('end', onEnd);
      clearTimeout(timer);
    },
  };
}

/**
 * The multipart parser throws plain errors (no status) for a body it cannot split, e.g.
 * `multipart/form-data` without a boundary, or one that ends inside a part: those are the client's
 * (400). Errors of the file system (they name their `syscall`) stay server faults.
 */
function asClientError(err: unknown): unknown {
  const e = err as { statusCode?: number; syscall?: string; message?: string };
  if (err instanceof AppError || e.statusCode !== undefined || e.syscall !== undefined) return err;
  return invalid(`the multipart body could not be read: ${e.message ?? String(err)}`);
}

const ONE_FILE = 'send one file per upload (multipart field "file")';

/** The next file part of the request (fields around it are ignored), as `req.file()` reads it. */
async function nextFile(files: AsyncIterator<MultipartFile>): Promise<MultipartFile | undefined> {
  try {
    const next = await files.next();
    return next.done ? undefined : next.value;
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw invalid(ONE_FILE);
    throw asClientError(err);
  }
}

/**
 * Streams the part into a new file under the store's `.tmp/` (same file system as the store; leftovers
 * of a crash are removed by the store's temp cleanup), so an upload is never held in memory.
 * multipart stops the stream at limits.fileSize; a truncated part is refused as too large.
 */
async function saveFilePart(
  part: MultipartFile,
  tmpRoot: string,
  raw: IncomingMessage,
  maxBytes: number,
): Promise<string> {
  const tooLarge = () =>
    new AppError('too_large', `the file is larger than the upload limit of ${bytesText(maxBytes)}`);
  await mkdir(tmpRoot, { recursive: true });
  const path = join(tmpRoot, `upload-${Date.now()}-${randomBytes(8).toString('hex')}.epub`);
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  const watch = bodyEndsFirst(raw);
  try {
    await Promise.race([pipeline(part.file, out), watch.failed]);
    if (part.file.truncated) throw tooLarge();
    return path;
  } catch (err) {
    // the pipeline may have destroyed `out` with this very error: its 'error' event is not a new failure
    if (!out.closed) await once(out.destroy(), 'close').catch(() => {});
    await rm(path, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw asClientError(err);
  } finally {
    watch.stop();
  }
}

/** A size as an operator sets it: whole MiB as such (the default, 150 MiB), else to a tenth, or bytes. */
export function bytesText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (mib >= 1) return Number.isInteger(mib) ? `${mib} MiB` : `${mib.toFixed(1)} MiB (${bytes} bytes)`;
  return `${bytes} bytes`;
}

/**
 * The one EPUB of an upload request (multipart field `file`), saved under the store's `.tmp/` and
 * handed to `use`; the temporary file is removed afterwards, whatever `use` does.
 */
export async function withUploadedFile<T>(
  req: FastifyRequest,
  tmpRoot: string,
  /** the multipart limit (UPLOAD_MAX_BYTES), named in the refusal of a larger file */
  maxBytes: number,
  use: (path: string, clientName: string) => Promise<T>,
): Promise<T> {
  if (!req.isMultipart())
    throw new AppError('unsupported_media', 'send the EPUB as multipart/form-data, field "file"');
  const files = req.files();
  const part = await nextFile(files);
  if (part?.fieldname !== 'file') throw invalid('the multipart field "file" is required');
  const path = await saveFilePart(part, tmpRoot, req.raw, maxBytes);
  try {
    // a second file must not be dropped unread while the first answers 200
    if (await nextFile(files)) throw invalid(ONE_FILE);
    return await use(path, part.filename ?? '');
  } finally {
    await rm(path, { force: true });
  }
}
