/**
 * The web host's reading of a `url` card: the link is offered only when the host's own check (the
 * executor's rule) passes and names the host the card shows; Open / Decline / Cancel answer with the
 * card's labels, which the executor's answer check takes.
 */
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { answerRefusal, elicitationToCard, hostCardKindOf, hostQuestionsOf, hostUrlOf, responseForCard, type HostReply as MapperReply } from '@wework/elicitation-mapper';
import type { HostCard } from '@wework/host-protocol';
import { linkReply, offersCancel, offersDecline, readCard, type CardModel } from '../src/CardForm.js';

function urlHostCard(url: string): { readonly host: HostCard; readonly mapped: ReturnType<typeof elicitationToCard> } {
  const mapped = elicitationToCard({ mode: 'url', message: 'Sign in to connect your account', url, elicitationId: 'connect-1' });
  if (E.isLeft(mapped)) throw new Error(mapped.left.message);
  const hostUrl = hostUrlOf(mapped.right);
  const host: HostCard = {
    cardId: 'mcpServer/elicitation/request#0',
    origin: 'mcpElicitation',
    kind: hostCardKindOf(mapped.right),
    threadId: 'thread-1',
    turnId: null,
    serverName: 'forms',
    message: mapped.right.message,
    questions: hostQuestionsOf(mapped.right),
    submitOnSelect: mapped.right.submitOnSelect,
    ...(hostUrl === null ? {} : { url: hostUrl }),
  };
  return { host, mapped };
}

const model = (card: unknown): CardModel => {
  const read = readCard(card);
  if (E.isLeft(read)) throw new Error(read.left.message);
  return read.right;
};

describe('a url card in the web host', () => {
  it('offers the checked link with its scheme and host, and Open / Decline / Cancel answer as the executor maps them', () => {
    const { host, mapped } = urlHostCard('https://auth.example.com/connect?client=forms');
    const read = model(host);
    expect(read.link).toEqual({
      questionId: 'openUrl',
      href: 'https://auth.example.com/connect?client=forms',
      scheme: 'https',
      host: 'auth.example.com',
      labels: { accept: 'Open', decline: 'Decline', cancel: 'Cancel' },
    });
    expect(offersDecline(read) && offersCancel(read)).toBe(true);
    if (read.link === null || read.link === undefined || E.isLeft(mapped)) throw new Error('expected a link');
    for (const [choice, action] of [['accept', 'accept'], ['decline', 'decline'], ['cancel', 'cancel']] as const) {
      const reply = linkReply(read.link, choice);
      expect(answerRefusal(host, reply)).toBeNull();
      expect(responseForCard(mapped.right, reply as MapperReply).action).toBe(action);
    }
  });

  it('does not offer a link the card names with another host, or a link that fails the check', () => {
    const { host } = urlHostCard('https://auth.example.com/');
    expect(model({ ...host, url: { ...host.url, host: 'bank.example' } }).link).toBeNull();
    expect(model({ ...host, url: { ...host.url, url: 'javascript:alert(1)' } }).link).toBeNull();
    expect(model({ ...host, url: { ...host.url, url: 'http://auth.example.com/', scheme: 'http' } }).link).toBeNull();
    expect(model({ ...host, url: null }).link).toBeNull();
  });

  it('a card that is not a url card has no link', () => {
    const { host } = urlHostCard('https://auth.example.com/');
    expect(model({ ...host, kind: 'form' }).link).toBeNull();
  });
});
