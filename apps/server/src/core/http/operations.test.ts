// The start check of handlers by operation: every operation of the spec has a handler, every handler an
// operation, no operation two handlers.
import { describe, expect, it } from 'vitest';
import { handlersByOperation } from './operations.js';

const serve = () => {};

describe('handlersByOperation', () => {
  it('gives every operation its handler when they match one to one', () => {
    const handlers = handlersByOperation(
      ['listThings', 'getThing'],
      [
        { name: 'things', handlers: { listThings: serve } },
        { name: 'more', handlers: { getThing: serve } },
      ],
    );
    expect([...handlers.keys()].sort()).toEqual(['getThing', 'listThings']);
  });

  it('refuses to start when an operation has no handler', () => {
    expect(() =>
      handlersByOperation(['listThings', 'getThing'], [{ name: 'things', handlers: { listThings: serve } }]),
    ).toThrow(/operations without a handler: getThing/);
  });

  it('refuses to start when a handler serves no operation of the spec', () => {
    expect(() =>
      handlersByOperation(
        ['listThings'],
        [{ name: 'things', handlers: { listThings: serve, getThng: serve } }],
      ),
    ).toThrow(/handlers of no operation of the spec: getThng \(things\)/);
  });

  it('refuses to start when two areas register the same operation', () => {
    expect(() =>
      handlersByOperation(
        ['listThings'],
        [
          { name: 'things', handlers: { listThings: serve } },
          { name: 'copies', handlers: { listThings: serve } },
        ],
      ),
    ).toThrow(/listThings has handlers in both things and copies/);
  });
});
