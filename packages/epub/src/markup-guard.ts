import { MarkupScanner } from './markup-scanner.js';
import { detectEncoding, isXmlSpace, type XmlEncoding } from './xml-guard.js';

/** Bytes of an entry gathered before deciding whether it is markup and how it is encoded. */
const HEAD_BYTES = 1024;
/** Most bytes decoded at once: a stored entry of a buffer-backed archive arrives as one chunk. */
const PIECE_BYTES = 64 * 1024;

interface View {
  write(bytes: Buffer): void;
  end(): void;
}

/**
 * Checks one archive entry for DTDs as its bytes go by, in bounded memory: the head, one piece and the
 * scanners' state (reading a large entry whole to check it would take several times its size).
 *
 * Every entry whose content is markup is checked, whatever its name: after an optional BOM and white
 * space, `<` in ASCII-compatible bytes or in UTF-16 (a chapter `ch2` without an extension, `evil.dtd`
 * and `x.mml` would otherwise be served with their entities). Entries named like XML are checked
 * whatever their content. Images and fonts do not start with `<` and are not read.
 *
 * The bytes are read twice: decoded per the file's encoding, and one byte per character. A chapter
 * declaring ISO-2022-JP turns a plain `<!ENTITY` into kanji for the decoder, while anything reading
 * it as UTF-8 (a charset sent with it overrides the declaration) sees the declaration. UTF-8 maps
 * every byte below 0x80 to itself and no other byte to a character below 0x80, and the scanner acts
 * on such characters only: for UTF-8 the two readings are the same, and one is run.
 */
export class MarkupGuard {
  private head: Buffer[] = [];
  private headBytes = 0;
  /** null until the head is in; empty for an entry that is not markup. */
  private views: View[] | null = null;

  constructor(
    private readonly where: string,
    private readonly alwaysMarkup = false,
  ) {}

  write(chunk: Buffer): void {
    for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
      const piece = chunk.subarray(at, at + PIECE_BYTES);
      if (this.views !== null) {
        for (const view of this.views) view.write(piece);
        continue;
      }
      this.head.push(piece);
      this.headBytes += piece.length;
      if (this.headBytes >= HEAD_BYTES) this.open(false);
    }
  }

  end(): void {
    if (this.views === null) this.open(true);
    for (const view of this.views ?? []) view.end();
  }

  private open(complete: boolean): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    const encoding = detectEncoding(head);
    const markup = this.alwaysMarkup || isMarkup(head, encoding, complete);
    if (!markup) this.views = [];
    else if (encoding.label === 'utf-8') this.views = [oneByteView(this.where, true)];
    else this.views = [decodedView(encoding, this.where), oneByteView(this.where, false)];
    for (const view of this.views) view.write(head);
  }
}

/** After the BOM, white space then `<`, read in the encoding's units. */
function isMarkup(head: Buffer, { label, bom }: XmlEncoding, complete: boolean): boolean {
  const step = label.startsWith('utf-16') ? 2 : 1;
  for (let i = bom; i + step <= head.length; i += step) {
    const unit = step === 1 ? head[i] : label === 'utf-16le' ? head.readUInt16LE(i) : head.readUInt16BE(i);
    if (unit === 0x3c) return true;
    if (!isXmlSpace(unit)) return false;
  }
  // only white space so far: no binary format starts so, and markup may follow
  return !complete;
}

function decodedView({ label, bom }: XmlEncoding, where: string): View {
  const decoder = new TextDecoder(label);
  const scanner = new MarkupScanner(where);
  let skip = bom;
  return {
    write(bytes) {
      const rest = bytes.subarray(skip);
      skip = Math.max(0, skip - bytes.length);
      scanner.feed(decoder.decode(rest, { stream: true }));
    },
    end() {
      scanner.feed(decoder.decode());
      scanner.end();
    },
  };
}

/** One byte per character. Not the file's text in another encoding: an unterminated end is not refused. */
function oneByteView(where: string, isText: boolean): View {
  const scanner = new MarkupScanner(where, isText);
  return {
    write: (bytes) => scanner.feed(bytes.toString('latin1')),
    end: () => scanner.end(),
  };
}
