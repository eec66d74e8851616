import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/model-catalog', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'DEFAULT_MAX_PAGES',
        'MAX_TRACKED_WRITES',
        'catalogChanged',
        'catalogRead',
        'checkSendWith',
        'configWriteTouchesModels',
        'emptyFreshness',
        'keyPathTouchesModels',
        'lookupCatalog',
        'watchWire',
        'PURPOSES',
        'Purpose',
        'RememberedSelections',
        'acceptPage',
        'catalogFromModels',
        'checkSendable',
        'cursorLoop',
        'defaultModel',
        'duplicateModel',
        'emptyCatalog',
        'fetchFailed',
        'fetchRejected',
        'findModel',
        'invalidPage',
        'loadCatalog',
        'makeSelections',
        'modelIds',
        'modelListParams',
        'modelUnavailable',
        'noDefaultModel',
        'noSelections',
        'startPaging',
        'tooManyPages',
      ].sort(),
    );
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(
      ['catalogModelsArbitrary', 'fixedPager', 'modelArbitrary', 'offsetPager', 'pagedCatalogArbitrary', 'pagesOf'].sort(),
    );
  });
});
