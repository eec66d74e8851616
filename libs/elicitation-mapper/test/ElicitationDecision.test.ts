/**
 * The executor's two calls: a request becomes a card or an immediate decline (with the reason),
 * and a card plus the host's reply becomes the response; plus the result helpers and the MCP SDK
 * form of a result.
 */
import { describe, expect, test } from 'vitest';
import {
  acceptResult,
  cancelResult,
  declineResult,
  handleElicitationRequest,
  noUsableAnswerResult,
  responseForCard,
  toMcpElicitResult,
  unsupportedResult,
} from '../src/index.js';
import { answers, formCardOf, golden } from './support.js';

describe('handleElicitationRequest', () => {
  test('a supported form → ShowCard', () => {
    const params = golden('forms').cards[1]?.params;
    expect(handleElicitationRequest(params)).toEqual({ _tag: 'ShowCard', card: formCardOf(params) });
  });

  test('an unsupported request → Respond with the exact decline and the reason', () => {
    const decision = handleElicitationRequest({ serverName: 's', threadId: 't', turnId: null, mode: 'openai/userVerification', title: 'Verify', description: 'd', challenge: 'c' });
    expect(decision).toEqual({
      _tag: 'Respond',
      response: { action: 'decline', content: null, _meta: null },
      reason: { _tag: 'UnsupportedMode', mode: 'openai/userVerification', message: 'Unsupported elicitation: mode "openai/userVerification" is not supported (use "form" or "url")' },
    });
    const file = handleElicitationRequest({ serverName: 's', threadId: 't', turnId: null, mode: 'url', message: 'Sign in', url: 'file:///home/user/.ssh/id_rsa', elicitationId: 'e' });
    expect(file).toEqual({
      _tag: 'Respond',
      response: { action: 'decline', content: null, _meta: null },
      reason: { _tag: 'UnsupportedUrl', problem: 'scheme', scheme: 'file', host: '', message: 'Unsupported elicitation: url mode: scheme "file" is not offered (only https, or http on loopback)' },
    });
  });
});

describe('responseForCard', () => {
  const card = formCardOf(golden('forms').cards[1]?.params);

  test('answers, cancel, decline, and anything else', () => {
    expect(responseForCard(card, answers({ target: ['Staging'] }))).toStrictEqual({ action: 'accept', content: { target: 'staging' }, _meta: null });
    expect(responseForCard(card, { action: 'decline' })).toStrictEqual({ action: 'decline', content: null, _meta: null });
    expect(responseForCard(card, { action: 'cancel' })).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(responseForCard(card, { answers: 'nope' } as never)).toStrictEqual({ action: 'cancel', content: null, _meta: null });
  });
});

describe('result helpers', () => {
  test('the three exact shapes', () => {
    expect(acceptResult({ a: 1 })).toStrictEqual({ action: 'accept', content: { a: 1 }, _meta: null });
    expect(cancelResult()).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(declineResult()).toStrictEqual({ action: 'decline', content: null, _meta: null });
    expect(noUsableAnswerResult()).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(unsupportedResult({ _tag: 'MissingProperties', message: 'm' })).toStrictEqual({ action: 'decline', content: null, _meta: null });
  });

  test('toMcpElicitResult drops the nulls the MCP SDK rejects', () => {
    expect(toMcpElicitResult(acceptResult({ a: 'x' }))).toStrictEqual({ action: 'accept', content: { a: 'x' } });
    expect(toMcpElicitResult(acceptResult({}, { persist: 'session' }))).toStrictEqual({ action: 'accept', content: {}, _meta: { persist: 'session' } });
    expect(toMcpElicitResult(cancelResult())).toStrictEqual({ action: 'cancel' });
    expect(toMcpElicitResult(declineResult())).toStrictEqual({ action: 'decline' });
  });
});
