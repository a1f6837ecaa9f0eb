import contentDisposition from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { downloadDisposition } from '../src/routes/res/download-name.js';

const parsed = (header: string) => contentDisposition.parse(header);

// OPDS: a downloaded EPUB is saved under its title (RFC 6266, RFC 5987)
describe('download name of a stored EPUB', () => {
  it('an ASCII title is the file name', () => {
    expect(downloadDisposition('Plain Title', 'b_1')).toBe('attachment; filename="Plain Title.epub"');
  });

  it('a CJK title is sent in filename*, with the stored name as the ASCII fallback', () => {
    const header = downloadDisposition('红楼梦', 'b_1');
    expect(header).toBe(`attachment; filename="b_1.epub"; filename*=UTF-8''%E7%BA%A2%E6%A5%BC%E6%A2%A6.epub`);
    expect(parsed(header).parameters.filename).toBe('红楼梦.epub');
  });

  it('accents and full-width letters fold to ASCII in the fallback', () => {
    expect(downloadDisposition('Les Misérables', 'b_1')).toContain('filename="Les Miserables.epub"');
    expect(downloadDisposition('ＳＱＬ必知必会', 'b_1')).toContain('filename="SQL.epub"');
    expect(parsed(downloadDisposition('Les Misérables', 'b_1')).parameters.filename).toBe(
      'Les Misérables.epub',
    );
  });

  it('controls and path separators never reach the name; quotes are quoted', () => {
    const header = downloadDisposition('a/b\\c\u0000\u0007\u009F\r\n"q"', 'b_1');
    expect(header).not.toMatch(/\p{Cc}/u);
    expect(parsed(header).parameters.filename).toBe('a_b_c "q".epub');
  });

  it('a quote in an ASCII title: the fallback needs no backslash, filename* keeps the title', () => {
    const header = downloadDisposition('Say "Hi"', 'b_1');
    expect(header).toBe(`attachment; filename="Say 'Hi'.epub"; filename*=UTF-8''Say%20%22Hi%22.epub`);
    expect(header).not.toContain('\\');
    expect(parsed(header).parameters.filename).toBe('Say "Hi".epub');
  });

  it('bidirectional controls never reach the name: an override cannot disguise the extension', () => {
    const header = downloadDisposition('كتاب \u202Egnp.exe\u2066\u200F', 'b_1');
    expect(parsed(header).parameters.filename).toBe('كتاب gnp.exe.epub');
  });

  it('a name of four-byte characters stays within the 255 bytes of a file name', () => {
    const name = parsed(downloadDisposition('📚'.repeat(80), 'b_1')).parameters.filename!;
    expect(name).toBe(`${'📚'.repeat(62)}.epub`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
  });

  it('an empty or unusable title is the stored name; a long one is cut', () => {
    expect(downloadDisposition(' \u0001 ', 'b_1')).toBe('attachment; filename="b_1.epub"');
    expect(parsed(downloadDisposition('x'.repeat(500), 'b_1')).parameters.filename).toBe(
      `${'x'.repeat(80)}.epub`,
    );
  });
});
