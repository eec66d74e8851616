/**
 * The example at the top of README.md, kept compiling and passing.
 */
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import type { Model, ModelListParams } from '@wework/codex-protocol';
import { checkSendable, loadCatalog, makeSelections } from '../src/index.js';
import { offsetPager } from '../src/testing.js';

const model = (id: string, isDefault = false, hidden = false): Model => ({
  id, model: id, upgrade: null, upgradeInfo: null, availabilityNux: null, displayName: id, description: '', modelSpecialty: null,
  hidden, supportedReasoningEfforts: [], defaultReasoningEffort: 'medium', inputModalities: ['text'], supportsPersonality: false,
  multiAgentVersion: null, additionalSpeedTiers: [], serviceTiers: [], defaultServiceTier: null, availableAccessPrograms: null, isDefault,
});

test('README example', async () => {
  const server = offsetPager([model('gpt-6.2-sol', true), model('gpt-6.2-astra'), model('codex-auto-review', false, true), model('gpt-5.5')]);
  const client = { request: (_method: unknown, params: ModelListParams) => server(params.cursor ?? null, params) };
  const ModelList = 'model/list';

  // --- README example begins ---
  const loaded = await loadCatalog((_cursor, params) => client.request(ModelList, params), { limit: 2 });
  if (E.isLeft(loaded)) throw new Error(loaded.left.message); // FetchFailed | InvalidPage | CursorLoop | ...
  const catalog = loaded.right; // models in wire order, hidden ones left out

  checkSendable(catalog, 'gpt-5.5');  // Right({ _tag: 'SavedModel', model })
  checkSendable(catalog, 'gpt-4.1');  // Left({ _tag: 'ModelUnavailable', message: 'The model "gpt-4.1" is not available right now. Choose an available model to send: ...' })
  checkSendable(catalog, null);       // a new task: Right({ _tag: 'DefaultModel', model: <the isDefault model> })

  const selections = makeSelections(catalog).select('supervision', 'gpt-6.2-astra');
  // Right(selections): last('supervision') === 'gpt-6.2-astra', last('chat') === null
  // --- README example ends ---

  expect(catalog.models.map((m) => m.id)).toEqual(['gpt-6.2-sol', 'gpt-6.2-astra', 'gpt-5.5']);
  expect(checkSendable(catalog, 'gpt-5.5')).toMatchObject(E.right({ _tag: 'SavedModel', model: { id: 'gpt-5.5' } }));
  expect(checkSendable(catalog, 'gpt-4.1')).toMatchObject(
    E.left({ _tag: 'ModelUnavailable', message: 'The model "gpt-4.1" is not available right now. Choose an available model to send: gpt-6.2-sol, gpt-6.2-astra, gpt-5.5.' }),
  );
  expect(checkSendable(catalog, null)).toMatchObject(E.right({ _tag: 'DefaultModel', model: { id: 'gpt-6.2-sol' } }));
  if (E.isLeft(selections)) throw new Error('selectable');
  expect(selections.right.last('supervision')).toBe('gpt-6.2-astra');
  expect(selections.right.last('chat')).toBeNull();
});
