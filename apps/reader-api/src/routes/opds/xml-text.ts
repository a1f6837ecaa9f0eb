/**
 * Characters XML 1.0 does not allow at all (§2.2): C0 controls other than tab, LF and CR, U+FFFE,
 * U+FFFF and halves of surrogate pairs. Escaping cannot carry them (`&#1;` is not well-formed either),
 * so they are dropped: EPUB metadata is the publisher's text, and a control character in a title
 * must not make a whole feed unreadable. DEL and the C1 controls (U+007F-U+009F), which §2.2 asks
 * documents to avoid, go too: parsers read U+0085 as a line end (a title then shows on two lines in
 * Thorium), and none of them is text a reader should see.
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const MARKUP = /[&<>"']/g;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Text as XML character data or an attribute value (quoted with either quote). Hand-written rather
 * than a builder: the feeds use a fixed handful of elements, and a general builder (xmlbuilder2) costs
 * many times what the page's queries cost.
 */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(MARKUP, (ch) => ENTITY[ch]!);
}

/** An element with text content, or nothing when the text is empty. */
export function textElement(name: string, text: string, attrs = ''): string {
  return text ? `<${name}${attrs}>${xmlText(text)}</${name}>` : '';
}

/** Attributes from pairs, each value escaped; undefined values are left out. */
export function attributes(pairs: Record<string, string | undefined>): string {
  let out = '';
  for (const [name, value] of Object.entries(pairs))
    if (value !== undefined) out += ` ${name}="${xmlText(value)}"`;
  return out;
}
