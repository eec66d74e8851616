/**
 * The model catalog against the real app-server: the bundled catalog as `model/list` returns it, and a
 * task whose saved model is no longer offered cannot send.
 */
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelList } from '@wework/codex-protocol';
import { checkSendable, makeSelections, modelIds } from '@wework/model-catalog';
import { respond, say } from '@wework/scripted-model';
import { threadParamsFor } from '../src/executorConfig.js';
import { managedConfig, startSandbox } from './support/executorSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const host = { showCard: () => Promise.resolve({ action: 'cancel' as const }) };

describe('the model catalog', () => {
  it('is model/list with hidden models excluded, every page, in the order returned', async () => {
    const box = await startSandbox({ script: [respond(say('ok'))], host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
    const catalog = await box.runtime.loadModelCatalog();
    if (E.isLeft(catalog)) throw new Error(JSON.stringify(catalog.left));
    const direct = await box.runtime.server.client.request(ModelList, { includeHidden: false });
    if (E.isLeft(direct)) throw new Error(JSON.stringify(direct.left));
    expect(modelIds(catalog.right)).toEqual(direct.right.data.map((model) => model.id));
    expect(catalog.right.models.filter((model) => model.isDefault)).toHaveLength(1);
  });

  it('blocks a task whose saved model disappeared, says why, and never substitutes the default', async () => {
    const box = await startSandbox({ script: [respond(say('ok'))], host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
    const catalog = await box.runtime.loadModelCatalog();
    if (E.isLeft(catalog)) throw new Error(JSON.stringify(catalog.left));
    const blocked = checkSendable(catalog.right, 'gpt-retired-model');
    expect(blocked).toMatchObject({ left: { _tag: 'ModelUnavailable', model: 'gpt-retired-model' } });
    if (E.isLeft(blocked)) expect(blocked.left.message).toMatch(/gpt-retired-model/);
    const [offered] = modelIds(catalog.right);
    expect(checkSendable(catalog.right, offered)).toMatchObject({ right: { _tag: 'SavedModel' } });
    expect(checkSendable(catalog.right, undefined)).toMatchObject({ right: { _tag: 'DefaultModel' } });
    // chat and supervision remember their selections independently over the same catalog
    const selections = makeSelections(catalog.right);
    const chat = selections.select('chat', offered ?? '');
    expect(E.isRight(chat) && chat.right.last('supervision')).toBeNull();
  });
});
