import { describe, expect, it } from 'vitest';
import { compactFigure, wholeFigure } from './figures';

describe('counts as the console writes them', () => {
  it('whole figures are grouped, in both languages', () => {
    expect(wholeFigure(1002021, 'en')).toBe('1,002,021');
    expect(wholeFigure(1002021, 'zh-CN')).toBe('1,002,021');
    expect(wholeFigure(28, 'en')).toBe('28');
  });

  it("an axis's figures are short in the operator's language", () => {
    expect([100000, 622922, 2134909].map((n) => compactFigure(n, 'en'))).toEqual(['100K', '622.9K', '2.1M']);
    expect([100000, 622922].map((n) => compactFigure(n, 'zh-CN'))).toEqual(['10万', '62.3万']);
    expect(compactFigure(3, 'en')).toBe('3');
  });
});
