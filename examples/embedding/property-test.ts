/**
 * Property-testing a host's own use of the mappings with the arbitraries the libraries export from
 * their `./testing` entries (they need `fast-check`, an optional peer dependency). The host code under
 * test is this file's `widgetsFor`, `submit` and the draft store; the libraries supply the inputs —
 * every form schema the mapper supports or declines, the answers a user can give to a card, every
 * composer document — and fast-check draws hundreds of each. `fc.assert` throws with a shrunk
 * counterexample when a property fails.
 *
 * Run: `node examples/dist/embedding/property-test.js` (after `npx nx build examples`).
 */
import * as fc from 'fast-check';
import { handleElicitationRequest, responseForCard, toMcpElicitResult, type Card, type HostReply } from '@wework/elicitation-mapper';
import { plainFormRequestArbitrary, unsupportedSchemaArbitrary, usableAnswersForCard } from '@wework/elicitation-mapper/testing';
import { normalize, parse, serialize, type ComposerDocument } from '@wework/mention-serializer';
import { documentArbitrary } from '@wework/mention-serializer/testing';

// --- The host's code under test -------------------------------------------------------------------

/** The host's UI: one widget per question of a card, in the card's order. */
interface Widget {
  readonly id: string;
  readonly kind: 'radio' | 'checkboxes' | 'toggle' | 'input';
  readonly label: string;
}
function widgetsFor(card: Card): ReadonlyArray<Widget> {
  return card.questions.map((question) => ({
    id: question.id,
    kind: question.answerType === 'singleChoice' ? 'radio' : question.answerType === 'multiChoice' ? 'checkboxes' : question.answerType === 'boolean' ? 'toggle' : 'input',
    label: question.header,
  }));
}

/** What the host sends back to the plugin when the user submits the card (the MCP SDK's result shape). */
function submit(card: Card, reply: HostReply): ReturnType<typeof toMcpElicitResult> {
  return toMcpElicitResult(responseForCard(card, reply));
}

/** The host keeps a composer draft as JSON holding its markdown. */
const saveDraft = (doc: ComposerDocument): string => JSON.stringify({ markdown: serialize(doc) });
const loadDraft = (stored: string): ComposerDocument => parse((JSON.parse(stored) as { markdown: string }).markdown);

// --- The properties -------------------------------------------------------------------------------

/** Checks `check` on 200 drawn inputs; prints the property's name once it held. */
function property<Ts>(name: string, check: fc.IProperty<Ts>): void {
  fc.assert(check, { numRuns: 200 });
  console.log(`ok: ${name}`);
}

property(
  'every supported form shows one widget per schema property, in the schema order',
  fc.property(plainFormRequestArbitrary, ({ params, schema }) => {
    const decision = handleElicitationRequest(params);
    if (decision._tag !== 'ShowCard') return false;
    return JSON.stringify(widgetsFor(decision.card).map((widget) => widget.id)) === JSON.stringify(schema.keys);
  }),
);

property(
  'a usable answer to any supported form reaches the plugin as accept, with only the schema keys and every required one',
  fc.property(
    plainFormRequestArbitrary.chain(({ params, schema }) => {
      const decision = handleElicitationRequest(params);
      if (decision._tag !== 'ShowCard') throw new Error('a supported schema was declined');
      return usableAnswersForCard(decision.card).map((reply) => ({ card: decision.card, reply, schema }));
    }),
    ({ card, reply, schema }) => {
      const result = submit(card, reply);
      if (result.action !== 'accept') return false;
      const keys = Object.keys(result.content ?? {});
      return keys.every((key) => schema.keys.includes(key)) && schema.requestedSchema.required.every((key) => keys.includes(key));
    },
  ),
);

property(
  'a form the mapper does not support is declined, and the host shows nothing',
  fc.property(unsupportedSchemaArbitrary, ({ requestedSchema, expectedTag }) => {
    const decision = handleElicitationRequest({ mode: 'form', message: 'Fill this in', requestedSchema });
    return decision._tag === 'Respond' && decision.reason._tag === expectedTag && toMcpElicitResult(decision.response).action === 'decline';
  }),
);

property(
  'a saved draft loads back as the document the user composed',
  fc.property(documentArbitrary, (doc) => JSON.stringify(loadDraft(saveDraft(doc))) === JSON.stringify(normalize(doc))),
);
