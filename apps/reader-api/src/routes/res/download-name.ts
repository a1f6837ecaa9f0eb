import contentDisposition from 'content-disposition';

/** Longest title kept in a download name, in characters (file systems cap names at 255 bytes). */
const TITLE_MAX = 80;
// C0 and C1 controls and DEL: a name must not carry them into a file system or a header
const CONTROLS = /\p{Cc}/gu;
const SEPARATORS = /[/\\]/g;
const COMBINING = /\p{M}/gu;
const NON_ASCII = /[^\x20-\x7E]/g;

/**
 * `Content-Disposition` of a stored EPUB (RFC 6266): saved under the book's title, with an ASCII
 * `filename` for clients that ignore `filename*` (accents dropped; a title with no ASCII letter or
 * digit left, a CJK one, falls back to the stored file name) and the title itself in `filename*`
 * (RFC 5987, UTF-8). A title with no usable character at all is the stored file name.
 */
export function downloadDisposition(title: string, fileName: string): string {
  const name =
    Array.from(title.replace(/\s+/g, ' ').replace(CONTROLS, '').replace(SEPARATORS, '_').trim())
      .slice(0, TITLE_MAX)
      .join('')
      .trim() || fileName;
  const ascii = name
    .normalize('NFKD')
    .replace(COMBINING, '')
    .replace(NON_ASCII, '')
    .replace(/\s+/g, ' ')
    .trim();
  const fallback = /[A-Za-z0-9]/.test(ascii) ? ascii : fileName;
  return contentDisposition(`${name}.epub`, { type: 'attachment', fallback: `${fallback}.epub` });
}
