import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/model-catalog', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'RememberedSelections',
      'acceptPage',
      'catalogChanged',
      'catalogFromModels',
      'catalogRead',
      'checkSendWith',
      'checkSendable',
      'defaultModel',
      'emptyCatalog',
      'emptyFreshness',
      'findModel',
      'loadCatalog',
      'lookupCatalog',
      'makeSelections',
      'modelIds',
      'modelListParams',
      'startPaging',
      'watchWire',
    ]);
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(
      ['catalogModelsArbitrary', 'fixedPager', 'modelArbitrary', 'offsetPager', 'pagedCatalogArbitrary', 'pagesOf'].sort(),
    );
  });
});
