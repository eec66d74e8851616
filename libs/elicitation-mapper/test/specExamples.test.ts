/**
 * The plugin forms spec's examples, verbatim: the card each request becomes and the exact
 * ElicitResult the plugin receives for the answer the spec describes. The same forms, as the real
 * Codex forwards them (golden fixtures), map to the same cards and results.
 */
import { describe, expect, test } from 'vitest';
import { handleElicitationRequest, responseForCard } from '../src/index.js';
import { userInputQuestions } from '../src/Card.js';
import { answers, formCardOf, golden } from './support.js';

/** The spec's "Trigger" example, as `mcpServer/elicitation/request` params. */
const triggerParams = {
  serverName: 'example-plugin',
  threadId: 'thr_1',
  turnId: 'turn_1',
  mode: 'form',
  message: 'Choose how to continue',
  requestedSchema: {
    type: 'object',
    properties: {
      strategy: {
        type: 'string',
        title: 'Strategy',
        description: 'How should the plugin continue?',
        oneOf: [
          { const: 'fast', title: 'Fast' },
          { const: 'safe', title: 'Safe' },
          { const: 'manual', title: 'Ask me before each step' },
        ],
      },
    },
    required: ['strategy'],
  },
};

const singleChoice = {
  mode: 'form',
  message: 'Choose a deployment target',
  requestedSchema: {
    type: 'object',
    properties: {
      target: {
        type: 'string',
        title: 'Deployment target',
        description: 'Select the target environment for this deployment.',
        oneOf: [
          { const: 'staging', title: 'Staging' },
          { const: 'production', title: 'Production' },
        ],
      },
    },
    required: ['target'],
  },
};

const booleanConfirmation = {
  mode: 'form',
  message: 'Continue deleting the cache?',
  requestedSchema: {
    type: 'object',
    properties: {
      confirm: {
        type: 'boolean',
        title: 'Confirm deletion',
        description: 'This operation clears the current workspace cache.',
      },
    },
    required: ['confirm'],
  },
};

const textInput = {
  mode: 'form',
  message: 'Enter release notes',
  requestedSchema: {
    type: 'object',
    properties: {
      releaseNote: {
        type: 'string',
        title: 'Release note',
        description: 'This text will be written to the release record.',
      },
    },
    required: ['releaseNote'],
  },
};

const customOption = {
  mode: 'form',
  message: 'Choose how to handle this',
  requestedSchema: {
    type: 'object',
    properties: {
      strategy: {
        type: 'string',
        title: 'Strategy',
        description: 'Choose a handling strategy.',
        oneOf: [
          { const: 'fast', title: 'Fast' },
          { const: 'safe', title: 'Safe' },
          { const: 'custom', title: 'Custom' },
        ],
      },
      customStrategy: {
        type: 'string',
        title: 'Custom strategy',
        description: 'If you chose Custom above, describe the requested handling.',
      },
    },
    required: ['strategy'],
  },
};

describe('Trigger example (Codex runtime event)', () => {
  test('becomes a one-question card that submits on select, with the source', () => {
    const card = formCardOf(triggerParams);
    expect(card).toEqual({
      _tag: 'FormCard',
      source: { serverName: 'example-plugin', threadId: 'thr_1', turnId: 'turn_1' },
      mode: 'form',
      message: 'Choose how to continue',
      submitOnSelect: true,
      questions: [
        {
          id: 'strategy',
          header: 'Strategy',
          question: 'How should the plugin continue?',
          isOther: false,
          isSecret: false,
          required: true,
          answerType: 'singleChoice',
          options: [
            { label: 'Fast', description: '' },
            { label: 'Safe', description: '' },
            { label: 'Ask me before each step', description: '' },
          ],
          values: ['fast', 'safe', 'manual'],
          defaultIndex: 0,
        },
      ],
    });
  });

  test('the Result section: choosing Fast accepts with { strategy: "fast" }', () => {
    const card = formCardOf(triggerParams);
    expect(responseForCard(card, answers({ strategy: ['Fast'] }))).toStrictEqual({ action: 'accept', content: { strategy: 'fast' }, _meta: null });
    expect(responseForCard(card, { action: 'cancel' })).toStrictEqual({ action: 'cancel', content: null, _meta: null });
  });
});

describe('Single Choice', () => {
  test('card: header from title, question from description, labels and values from oneOf', () => {
    const card = formCardOf(singleChoice);
    expect(card.submitOnSelect).toBe(true);
    expect(userInputQuestions(card)).toEqual([
      {
        id: 'target',
        header: 'Deployment target',
        question: 'Select the target environment for this deployment.',
        isOther: false,
        isSecret: false,
        options: [
          { label: 'Staging', description: '' },
          { label: 'Production', description: '' },
        ],
      },
    ]);
  });

  test('choosing Production gives the exact result', () => {
    const card = formCardOf(singleChoice);
    expect(responseForCard(card, answers({ target: ['Production'] }))).toStrictEqual({ action: 'accept', content: { target: 'production' }, _meta: null });
  });
});

describe('Boolean Confirmation', () => {
  test('card: the options true and false', () => {
    const card = formCardOf(booleanConfirmation);
    expect(card.submitOnSelect).toBe(true);
    expect(card.questions[0]).toMatchObject({
      id: 'confirm',
      header: 'Confirm deletion',
      question: 'This operation clears the current workspace cache.',
      answerType: 'boolean',
      options: [
        { label: 'true', description: '' },
        { label: 'false', description: '' },
      ],
      defaultIndex: 0,
    });
  });

  test('choosing true gives { confirm: true } (a boolean)', () => {
    const card = formCardOf(booleanConfirmation);
    expect(responseForCard(card, answers({ confirm: ['true'] }))).toStrictEqual({ action: 'accept', content: { confirm: true }, _meta: null });
    expect(responseForCard(card, answers({ confirm: ['false'] }))).toStrictEqual({ action: 'accept', content: { confirm: false }, _meta: null });
  });
});

describe('Text Input', () => {
  test('card: a short text input (no options), submitted with a button', () => {
    const card = formCardOf(textInput);
    expect(card.submitOnSelect).toBe(false);
    expect(card.questions[0]).toMatchObject({ id: 'releaseNote', header: 'Release note', answerType: 'text', options: null });
  });

  test('the text is returned as given, also empty', () => {
    const card = formCardOf(textInput);
    expect(responseForCard(card, answers({ releaseNote: ['Fix login failures and improve startup speed'] }))).toStrictEqual({
      action: 'accept',
      content: { releaseNote: 'Fix login failures and improve startup speed' },
      _meta: null,
    });
    expect(responseForCard(card, answers({ releaseNote: [''] }))).toStrictEqual({ action: 'accept', content: { releaseNote: '' }, _meta: null });
  });
});

describe('Custom Option', () => {
  test('card: a choice and a text field, in the request order, with a Submit button', () => {
    const card = formCardOf(customOption);
    expect(card.submitOnSelect).toBe(false);
    expect(card.questions.map((q) => [q.id, q.answerType, q.required])).toEqual([
      ['strategy', 'singleChoice', true],
      ['customStrategy', 'text', false],
    ]);
  });

  test('choosing Custom with text gives both values', () => {
    const card = formCardOf(customOption);
    const reply = answers({ strategy: ['Custom'], customStrategy: ['Inspect the diff first, then only update tests'] });
    expect(responseForCard(card, reply)).toStrictEqual({
      action: 'accept',
      content: { strategy: 'custom', customStrategy: 'Inspect the diff first, then only update tests' },
      _meta: null,
    });
  });
});

describe('the same forms through the real Codex (golden fixtures)', () => {
  const forms = golden('forms');
  const specForms = [triggerParams, singleChoice, booleanConfirmation, textInput, customOption];

  test.each(forms.cards.map((card, i) => [i, card] as const))('form %i maps to the card of the spec form, in Codex’s key order', (i, recorded) => {
    const fromCodex = formCardOf(recorded.params);
    const fromPlugin = formCardOf(specForms[i]);
    expect(fromCodex.source.serverName).toBe('forms');
    expect(fromCodex.questions.map((q) => q.id)).toEqual(Object.keys((recorded.params['requestedSchema'] as { properties: object }).properties));
    expect([...fromCodex.questions].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([...fromPlugin.questions].sort((a, b) => (a.id < b.id ? -1 : 1)));
  });

  test('Codex sorted the custom-option form: customStrategy comes first, as received', () => {
    const card = formCardOf(forms.cards[4]?.params);
    expect(card.questions.map((q) => q.id)).toEqual(['customStrategy', 'strategy']);
  });

  test('answering each recorded form by label gives exactly the response the plugin accepted', () => {
    const labelAnswers = [{ strategy: ['Safe'] }, { target: ['Production'] }, { confirm: ['true'] }, { releaseNote: ['Fix login failures and improve startup speed'] }, { strategy: ['Custom'], customStrategy: ['Inspect the diff first, then only update tests'] }];
    forms.cards.forEach((recorded, i) => {
      const decision = handleElicitationRequest(recorded.params);
      if (decision._tag !== 'ShowCard') throw new Error(decision.reason.message);
      expect(responseForCard(decision.card, answers(labelAnswers[i] ?? {}))).toStrictEqual(recorded.sent);
    });
    expect(forms.toolCalls.map((call) => call.status)).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
  });
});
