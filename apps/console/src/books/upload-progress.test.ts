import { describe, expect, it } from 'vitest';
import { progressView } from './upload-progress';

describe("the upload bar's view of the SDK's progress", () => {
  it('is a whole percentage that reaches 100 only when every byte is sent, with the bytes for people', () => {
    expect(progressView({ loaded: 0, total: 4 * 1024 * 1024 })).toEqual({
      percent: 0,
      loaded: '0 B',
      total: '4.0 MB',
    });
    expect(progressView({ loaded: 1536 * 1024, total: 3 * 1024 * 1024 })).toMatchObject({
      percent: 50,
      loaded: '1.5 MB',
    });
    expect(progressView({ loaded: 999, total: 1000 }).percent).toBe(99);
    expect(progressView({ loaded: 1000, total: 1000 }).percent).toBe(100);
  });

  it('shows 0 % for a body of unknown length', () => {
    expect(progressView({ loaded: 10, total: 0 }).percent).toBe(0);
  });
});
