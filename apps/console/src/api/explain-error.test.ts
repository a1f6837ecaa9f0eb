import { ApiError } from '@readlib/sdk';
import { describe, expect, it } from 'vitest';
import { explain } from './explain-error';

const refusal = (init: Partial<ConstructorParameters<typeof ApiError>[0]>) =>
  new ApiError({ family: 'admin', status: 400, code: -1, msg: 'x', kind: 'failure', ...init });

describe("a failed call in the operator's words", () => {
  it("names the refusal and quotes the service's message", () => {
    expect(explain(refusal({ status: 409, kind: 'conflict', msg: 'book exists', requestId: 'r-1' }))).toEqual(
      {
        key: 'errors.conflict',
        serverMsg: 'book exists',
        requestId: 'r-1',
        sessionEnded: false,
      },
    );
    expect(explain(refusal({ status: 422, kind: 'unsafe_archive', msg: 'path escapes' })).key).toBe(
      'errors.unsafe_archive',
    );
  });

  it('a generic failure keeps the service message under a generic headline', () => {
    expect(explain(refusal({ msg: 'title must not be blank' }))).toMatchObject({
      key: 'errors.other',
      serverMsg: 'title must not be blank',
    });
  });

  it('no answer at all: no service message to quote', () => {
    expect(explain(refusal({ status: 0, kind: 'network', msg: 'fetch failed' }))).toMatchObject({
      key: 'errors.network',
      serverMsg: undefined,
    });
  });

  it('an ended session is left to the login page', () => {
    expect(explain(refusal({ status: 401, code: -2, kind: 'unauthorized' })).sessionEnded).toBe(true);
    expect(explain(new Error('boom'))).toEqual({ key: 'errors.other', sessionEnded: false });
  });
});
