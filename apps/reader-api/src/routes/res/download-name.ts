import contentDisposition from 'content-disposition';

/** Longest title kept in a download name, in characters. */
const TITLE_MAX = 80;
/**
 * Longest name in UTF-8 bytes, `.epub` included: file systems cap names at 255 bytes, which 80
 * characters of four bytes (emoji, CJK extension B) would pass.
 */
const NAME_MAX_BYTES = 255;
// C0 and C1 controls and DEL: a name must not carry them into a file system or a header
const CONTROLS = /\p{Cc}/gu;
// bidirectional embeddings, overrides, isolates and marks: a U+202E in a title shows the end of the
// name reversed ("...\u202Egnp.epub" reads "...bupe.png"), which the saved file must not do
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
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
    cut(
      title
        .replace(/\s+/g, ' ')
        .replace(CONTROLS, '')
        .replace(BIDI_CONTROLS, '')
        .replace(SEPARATORS, '_')
        .trim(),
    ).trim() || fileName;
  // no quote in the quoted fallback: escaping it is what RFC 6266 (appendix D) says some clients miss;
  // the title keeps its quotes in filename*
  const ascii = name
    .normalize('NFKD')
    .replace(COMBINING, '')
    .replace(NON_ASCII, '')
    .replace(/"/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  const fallback = /[A-Za-z0-9]/.test(ascii) ? ascii : fileName;
  return contentDisposition(`${name}.epub`, { type: 'attachment', fallback: `${fallback}.epub` });
}

/** The title cut to TITLE_MAX characters, and shorter while the name would pass NAME_MAX_BYTES. */
function cut(title: string): string {
  const chars = Array.from(title).slice(0, TITLE_MAX);
  while (chars.length > 0 && Buffer.byteLength(`${chars.join('')}.epub`) > NAME_MAX_BYTES) chars.pop();
  return chars.join('');
}
