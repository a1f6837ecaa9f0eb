import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * Random access to the bytes of an archive: an in-memory buffer, or a file read through one file
 * descriptor (so a large upload is never held in memory: only the central directory and one entry).
 */
export interface ZipSource {
  readonly size: number;
  /** Exactly `length` bytes from `position`, or fewer at the end of the data. */
  read(position: number, length: number): Buffer;
  /** The same bytes as a stream (for inflating straight to disk). */
  stream(position: number, length: number): Readable;
  close(): void;
}

export function bufferSource(buf: Buffer): ZipSource {
  return {
    size: buf.length,
    read: (position, length) => buf.subarray(position, Math.min(buf.length, position + length)),
    stream: (position, length) =>
      Readable.from([buf.subarray(position, Math.min(buf.length, position + length))], {
        objectMode: false,
      }),
    close: () => {},
  };
}

export function fileSource(path: string): ZipSource {
  const fd = openSync(path, 'r');
  let closed = false;
  const size = fstatSync(fd).size;
  return {
    size,
    read(position, length) {
      const len = Math.max(0, Math.min(length, size - position));
      const out = Buffer.allocUnsafe(len);
      let done = 0;
      while (done < len) {
        const n = readSync(fd, out, done, len - done, position + done);
        if (n === 0) break;
        done += n;
      }
      return done === len ? out : out.subarray(0, done);
    },
    stream: (position, length) =>
      length <= 0
        ? Readable.from([], { objectMode: false })
        : createReadStream(path, { start: position, end: position + length - 1, highWaterMark: 256 * 1024 }),
    close() {
      if (!closed) {
        closed = true;
        closeSync(fd);
      }
    },
  };
}
