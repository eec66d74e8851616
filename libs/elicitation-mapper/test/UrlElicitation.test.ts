/**
 * URL-mode elicitation: the link check (only https, and http on loopback; parsed as a browser parses it),
 * the card, the answer mapping and the completion, by example and as properties.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  checkedResponseForCard,
  checkElicitationUrl,
  completesUrlCard,
  defaultAnswers,
  elicitationToCard,
  handleElicitationRequest,
  hostQuestionsOf,
  responseForCard,
  toMcpElicitResult,
} from '../src/index.js';
import { isLoopbackHostname } from '../src/UrlElicitation.js';
import { MAX_URL_LENGTH } from '../src/Unsupported.js';
import { openedResult } from '../src/ElicitResult.js';
import type { UrlCard } from '../src/Card.js';
import { offeredUrlArbitrary, refusedUrlArbitrary } from '../src/testing.js';

const urlCard = (url: string, elicitationId = 'e1'): UrlCard => {
  const card = elicitationToCard({ mode: 'url', message: 'Sign in to connect your account', url, elicitationId });
  if (E.isLeft(card) || card.right._tag !== 'UrlCard') throw new Error(`expected a url card, got ${JSON.stringify(card)}`);
  return card.right;
};

describe('checkElicitationUrl', () => {
  test.each([
    ['https://auth.example.com/connect?state=1', 'https://auth.example.com/connect?state=1', 'https', 'auth.example.com'],
    ['HTTPS://Auth.Example.COM:8443', 'https://auth.example.com:8443/', 'https', 'auth.example.com:8443'],
    ['http://localhost:3000/callback', 'http://localhost:3000/callback', 'http', 'localhost:3000'],
    ['http://127.0.0.1/', 'http://127.0.0.1/', 'http', '127.0.0.1'],
    ['http://127.1/', 'http://127.0.0.1/', 'http', '127.0.0.1'],
    ['http://[::1]:8080/x', 'http://[::1]:8080/x', 'http', '[::1]:8080'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/', 'https', 'xn--bcher-kva.example'],
  ])('offers %s as %s (scheme %s, host %s)', (input, url, scheme, host) => {
    expect(checkElicitationUrl(input)).toEqual(E.right({ url, scheme, host }));
  });

  test.each([
    ['javascript:alert(document.cookie)', 'scheme', 'javascript'],
    ['JavaScript:alert(1)', 'scheme', 'javascript'],
    [' javascript:alert(1)', 'scheme', 'javascript'],
    ['file:///etc/passwd', 'scheme', 'file'],
    ['data:text/html,<script>alert(1)</script>', 'scheme', 'data'],
    ['vbscript:msgbox', 'scheme', 'vbscript'],
    ['ftp://files.example.com/a', 'scheme', 'ftp'],
    ['http://example.com/login', 'httpNotLoopback', 'http'],
    ['http://localhost.evil.example/', 'httpNotLoopback', 'http'],
    ['http://128.0.0.1/', 'httpNotLoopback', 'http'],
    ['http://[::ffff:127.0.0.1]/', 'httpNotLoopback', 'http'],
    ['https://accounts.example.com@evil.example/', 'credentials', 'https'],
    ['not a url', 'unparsable', null],
    ['', 'unparsable', null],
  ])('declines %s (%s)', (input, problem, scheme) => {
    const checked = checkElicitationUrl(input);
    expect(checked).toEqual(E.left(expect.objectContaining({ _tag: 'UnsupportedUrl', problem, scheme })));
  });

  test('declines what is not a string, and a link longer than the limit', () => {
    for (const value of [undefined, null, 42, {}, ['https://example.com']]) expect(checkElicitationUrl(value)).toEqual(E.left(expect.objectContaining({ problem: 'unparsable' })));
    expect(checkElicitationUrl(`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`)).toEqual(E.left(expect.objectContaining({ problem: 'tooLong' })));
  });

  test('the reason names the scheme and the host, never the rest of the address', () => {
    const http = checkElicitationUrl('http://example.com/reset?token=secret-marker');
    expect(E.isLeft(http) && http.left.message).toBe('Unsupported elicitation: url mode: http to host "example.com" is not offered (http only on loopback)');
    const credentials = checkElicitationUrl('https://user:secret-marker@example.com/');
    expect(E.isLeft(credentials) && credentials.left.message).toBe('Unsupported elicitation: url mode: the https url to host "example.com" carries a user name or password');
  });

  test('property: every https link, and every http link on loopback, is offered as the parser reads it', () => {
    fc.assert(
      fc.property(offeredUrlArbitrary, (url) => {
        const parsed = new URL(url);
        expect(checkElicitationUrl(url)).toEqual(E.right({ url: parsed.href, scheme: parsed.protocol.slice(0, -1), host: parsed.host }));
      }),
      { numRuns: 300 },
    );
  });

  test('property: every other link is declined with its problem, and no message quotes the rest of the address', () => {
    fc.assert(
      fc.property(refusedUrlArbitrary, ({ url, problem }) => {
        const checked = checkElicitationUrl(url);
        expect(checked).toEqual(E.left(expect.objectContaining({ _tag: 'UnsupportedUrl', problem })));
        expect(E.isLeft(checked) && checked.left.message).not.toContain('secret-marker');
      }),
      { numRuns: 300 },
    );
  });

  test('property: on any text, what is offered is https, or http on loopback, and checking it again gives the same', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'file'] }), offeredUrlArbitrary), (text) => {
        const checked = checkElicitationUrl(text);
        if (E.isLeft(checked)) return;
        const { url, scheme, host } = checked.right;
        expect(scheme === 'https' || (scheme === 'http' && isLoopbackHostname(new URL(url).hostname))).toBe(true);
        expect(new URL(url).host).toBe(host);
        expect(checkElicitationUrl(url)).toEqual(checked);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the url card', () => {
  test('a URL-mode request is a card with the message, the checked link apart, and Open / Decline / Cancel', () => {
    const card = urlCard('https://auth.example.com/connect?client=forms', 'connect-1');
    expect(card).toEqual({
      _tag: 'UrlCard',
      source: { serverName: null, threadId: null, turnId: null },
      message: 'Sign in to connect your account',
      target: { url: 'https://auth.example.com/connect?client=forms', scheme: 'https', host: 'auth.example.com', elicitationId: 'connect-1' },
      questions: [
        {
          id: 'openUrl',
          answerType: 'openUrl',
          header: 'Open link',
          question: 'Open a page on auth.example.com (https)?',
          isOther: false,
          isSecret: false,
          required: true,
          options: [
            { label: 'Open', description: 'Open the link in a new browser tab.' },
            { label: 'Decline', description: 'Do not open the link; the plugin is told you declined.' },
            { label: 'Cancel', description: 'Dismiss the request without deciding.' },
          ],
          choices: ['accept', 'decline', 'cancel'],
        },
      ],
      submitOnSelect: true,
    });
    expect(hostQuestionsOf(card)).toEqual([
      expect.objectContaining({ id: 'openUrl', answerType: 'openUrl', defaultAnswers: [], options: [
        { label: 'Open', description: 'Open the link in a new browser tab.', value: 'accept' },
        { label: 'Decline', description: 'Do not open the link; the plugin is told you declined.', value: 'decline' },
        { label: 'Cancel', description: 'Dismiss the request without deciding.', value: 'cancel' },
      ] }),
    ]);
    expect(defaultAnswers(card)).toEqual({ answers: {} });
  });

  test('a javascript: or file: link is declined at once, with the reason for the log', () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd']) {
      const decision = handleElicitationRequest({ mode: 'url', message: 'Open this', url, elicitationId: 'e' });
      expect(decision).toEqual({ _tag: 'Respond', response: { action: 'decline', content: null, _meta: null }, reason: expect.objectContaining({ _tag: 'UnsupportedUrl', problem: 'scheme' }) });
    }
  });

  test('Open → accept without content, Decline → decline, Cancel → cancel; as the SDK result, accept has no content', () => {
    const card = urlCard('https://pay.example.com/checkout');
    const answer = (label: string) => ({ answers: { openUrl: { answers: [label] } } });
    expect(checkedResponseForCard(card, answer('Open'))).toEqual(E.right({ action: 'accept', content: null, _meta: null }));
    expect(checkedResponseForCard(card, answer('Decline'))).toEqual(E.right({ action: 'decline', content: null, _meta: null }));
    expect(checkedResponseForCard(card, answer('Cancel'))).toEqual(E.right({ action: 'cancel', content: null, _meta: null }));
    expect(checkedResponseForCard(card, { action: 'decline' })).toEqual(E.right({ action: 'decline', content: null, _meta: null }));
    expect(toMcpElicitResult(openedResult())).toEqual({ action: 'accept' });
    expect(toMcpElicitResult(responseForCard(card, answer('Open')))).toEqual({ action: 'accept' });
  });

  test('an answer that is not one of the options, or no answer, is refused', () => {
    const card = urlCard('https://pay.example.com/checkout');
    expect(checkedResponseForCard(card, { answers: { openUrl: { answers: ['Yes please'] } } })).toEqual(E.left(expect.objectContaining({ questionId: 'openUrl', problem: 'UnknownOption' })));
    expect(checkedResponseForCard(card, { answers: {} })).toEqual(E.left(expect.objectContaining({ questionId: 'openUrl', problem: 'MissingAnswer' })));
    expect(checkedResponseForCard(card, { answers: { openUrl: { answers: ['Open', 'Decline'] } } })).toEqual(E.left(expect.objectContaining({ problem: 'TooManyAnswers' })));
  });

  test('property: any label of the card maps to its choice; anything else is refused, never mapped', () => {
    const card = urlCard('https://auth.example.com/');
    const labels = ['Open', 'Decline', 'Cancel'];
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...labels), fc.string()), (label) => {
        const checked = checkedResponseForCard(card, { answers: { openUrl: { answers: [label] } } });
        const expected = { Open: 'accept', Decline: 'decline', Cancel: 'cancel' }[label];
        if (labels.includes(label)) expect(checked).toEqual(E.right(expect.objectContaining({ action: expected, content: null })));
        else expect(checked).toEqual(E.left(expect.objectContaining({ problem: 'UnknownOption' })));
      }),
    );
  });

  test('the completion notification of its elicitationId ends the card, and no other', () => {
    const card = urlCard('https://auth.example.com/', 'connect-7');
    expect(completesUrlCard(card, { elicitationId: 'connect-7' })).toBe(true);
    expect(completesUrlCard(card, { elicitationId: 'connect-8' })).toBe(false);
    expect(completesUrlCard(card, {})).toBe(false);
    expect(completesUrlCard(card, null)).toBe(false);
    const form = elicitationToCard({ mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } });
    expect(E.isRight(form) && completesUrlCard(form.right, { elicitationId: 'connect-7' })).toBe(false);
  });
});
