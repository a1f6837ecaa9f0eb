import { describe, expect, it } from 'vitest';
import { attributes, textElement, xmlText } from '../src/routes/opds/xml-text.js';
import { assertWellFormed } from './opds-clients.js';

// OPDS: feeds of hostile EPUB metadata stay well-formed XML
describe('XML text of the OPDS 1.2 feeds', () => {
  it('escapes markup in text and attributes', () => {
    expect(xmlText(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;',
    );
    expect(attributes({ title: 'a"b', skipped: undefined, rel: '<x>' })).toBe(
      ' title="a&quot;b" rel="&lt;x&gt;"',
    );
  });

  it('drops what XML 1.0 cannot carry or asks to avoid: C0 controls but tab, LF, CR; DEL and C1; U+FFFE, U+FFFF; lone surrogates', () => {
    const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('');
    expect(xmlText(`a${controls}b`)).toBe('a\t\n\rb');
    expect(xmlText('x\uFFFE\uFFFFy')).toBe('xy');
    // DEL and the C1 controls: U+0085 would read as a line end
    expect(xmlText('Ctrl\u007F \u0080title\u0085 nel\u009F')).toBe('Ctrl title nel');
    expect(xmlText('café ÿ')).toBe('café ÿ');
    expect(xmlText('lone \uD800 high, lone \uDFFF low')).toBe('lone  high, lone  low');
  });

  it('keeps CJK and pairs of surrogates (emoji)', () => {
    expect(xmlText('红楼梦 📚')).toBe('红楼梦 📚');
  });

  it('an element of any hostile text is well-formed, and empty text makes no element', () => {
    const hostile = `\u0000</title><!-- & ]]> \uD83D\uFFFE<?pi?>"'`;
    assertWellFormed(`<root>${textElement('title', hostile, ' type="text"')}</root>`);
    expect(textElement('summary', '')).toBe('');
  });
});
