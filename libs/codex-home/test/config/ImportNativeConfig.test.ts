import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { importNativeConfig, type NormalizedConfig } from '../../src/config/index.js';

const imported = (text: string): NormalizedConfig => {
  const result = importNativeConfig(text);
  if (E.isLeft(result)) throw new Error(`expected Right, got ${JSON.stringify(result.left)}`);
  return result.right;
};

describe('importNativeConfig', () => {
  it('removes only the top-level model, then normalizes', () => {
    const text = [
      '# native config',
      'model = "gpt-5.5" # my favourite',
      'model_provider = "azure"',
      'review_model = "o3"',
      'instructions = "Be brief."',
      '',
      '[profiles.fast]',
      'model = "o4-mini"',
      '',
      '[model_providers.azure]',
      'name = "Azure"',
      '',
    ].join('\n');
    const result = imported(text);
    expect(result.text).toBe(
      [
        '# native config',
        'model_provider = "azure"',
        'review_model = "o3"',
        'developer_instructions = "Be brief."',
        'personality = "pragmatic"',
        '',
        '[profiles.fast]',
        'model = "o4-mini"',
        '',
        '[model_providers.azure]',
        'name = "Azure"',
        '',
      ].join('\n'),
    );
    expect(result.changes.map((change) => change._tag)).toEqual(['ModelRemoved', 'InstructionsRenamed', 'PersonalityAdded']);
  });

  it('removes a quoted model key and keeps CRLF, the byte order mark and a missing final line break', () => {
    expect(imported('\uFEFFpersonality = "friendly"\r\n"model" = "o3"\r\n[t]\r\n').text).toBe('\uFEFFpersonality = "friendly"\r\n[t]\r\n');
    expect(imported('personality = "friendly"\nmodel = "o3"').text).toBe('personality = "friendly"\n');
  });

  it('gives what its TSDoc example says', () => {
    expect(imported('model = "o3"\nmodel_provider = "azure"\n\n[profiles.fast]\nmodel = "o4-mini"\n').text).toBe(
      'model_provider = "azure"\npersonality = "pragmatic"\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    );
  });

  it('is normalization alone when there is no top-level model', () => {
    const result = imported('[profiles.fast]\nmodel = "o4-mini"\n');
    expect(result.text).toBe('personality = "pragmatic"\n[profiles.fast]\nmodel = "o4-mini"\n');
    expect(result.changes).toEqual([{ _tag: 'PersonalityAdded', personality: 'pragmatic' }]);
  });

  it('leaves a `model` table alone, with a warning', () => {
    const result = imported('personality = "none"\n[model]\nname = "x"\n');
    expect(result.text).toBe('personality = "none"\n[model]\nname = "x"\n');
    expect(result.warnings).toEqual([expect.objectContaining({ _tag: 'ModelKept' })]);
  });

  it('imports nothing from malformed TOML', () => {
    expect(importNativeConfig('model = "o3"\nmodel = "o4"\n')).toEqual(E.left(expect.objectContaining({ _tag: 'MalformedConfig', line: 2 })));
  });
});
