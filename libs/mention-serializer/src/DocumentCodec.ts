/**
 * io-ts codec of a stored composer document (JSON from a draft store or another process), with a
 * decoder that returns a `_tag`ged error instead of throwing. Pure.
 */
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as t from 'io-ts';
import { expectedTypeName, issuePath } from '@wework/decode-issues';
import { validateDocument, type ComposerDocument, type InvalidMention } from './Document.js';

const TextSegmentCodec = t.type({ _tag: t.literal('Text'), text: t.string }, 'TextSegment');
const SkillMentionCodec = t.type(
  { _tag: t.literal('Mention'), kind: t.literal('skill'), name: t.string, path: t.string },
  'SkillMention',
);
const AppMentionCodec = t.type(
  { _tag: t.literal('Mention'), kind: t.literal('app'), name: t.string, connectorId: t.string },
  'AppMention',
);
const PluginMentionCodec = t.type(
  { _tag: t.literal('Mention'), kind: t.literal('plugin'), name: t.string, pluginName: t.string, marketplaceName: t.string },
  'PluginMention',
);

/** Codec of a {@link ComposerDocument}: an array of text segments and mentions. */
export const ComposerDocumentCodec = t.readonlyArray(
  t.union([TextSegmentCodec, SkillMentionCodec, AppMentionCodec, PluginMentionCodec]),
  'ComposerDocument',
);

/** Why an unknown value is not a usable composer document. */
export type DocumentDecodeError =
  | { readonly _tag: 'MalformedDocument'; readonly messages: ReadonlyArray<string> }
  | { readonly _tag: 'InvalidMention'; readonly problem: InvalidMention };

/**
 * Decodes untrusted JSON into a valid document: the shape first, then the mentions
 * (`validateDocument`). Extra fields are dropped.
 *
 * @example
 * decodeDocument([{ _tag: 'Text', text: 'hi' }]) // right([{ _tag: 'Text', text: 'hi' }])
 * decodeDocument(42)._tag // 'Left'
 */
export function decodeDocument(input: unknown): E.Either<DocumentDecodeError, ComposerDocument> {
  return pipe(
    ComposerDocumentCodec.decode(input),
    E.mapLeft((errors): DocumentDecodeError => ({ _tag: 'MalformedDocument', messages: errors.map(describe) })),
    E.map((doc): ComposerDocument =>
      doc.map((s) => {
        if (s._tag === 'Text') return { _tag: 'Text', text: s.text };
        switch (s.kind) {
          case 'skill':
            return { _tag: 'Mention', kind: 'skill', name: s.name, path: s.path };
          case 'app':
            return { _tag: 'Mention', kind: 'app', name: s.name, connectorId: s.connectorId };
          case 'plugin':
            return { _tag: 'Mention', kind: 'plugin', name: s.name, pluginName: s.pluginName, marketplaceName: s.marketplaceName };
        }
      }),
    ),
    E.chain((doc) => pipe(validateDocument(doc), E.mapLeft((problem): DocumentDecodeError => ({ _tag: 'InvalidMention', problem })))),
  );
}

function describe(error: t.ValidationError): string {
  const path = issuePath(error.context);
  return `${path === '' ? '<root>' : path}: expected ${expectedTypeName(error) ?? 'value'}`;
}
