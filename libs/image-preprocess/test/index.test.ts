import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/image-preprocess', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ModelCategory',
      'describeImageError',
      'modelCategoryOf',
      'planImage',
    ]);
  });

  it('pins the runtime exports of "./node"', () => {
    expect(Object.keys(node).sort()).toEqual(['TURN_DIRECTORY_PREFIX', 'createTurnImageStore', 'measureImage']);
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(['modelCategoryArbitrary', 'orientationArbitrary', 'planInputArbitrary']);
  });
});
