/**
 * Strict object codecs: required and optional keys, and any other key is an error with its path.
 * Every function here is pure.
 */
import * as t from 'io-ts';
import { describeKind, expectedTypeName, isRecord, issuePath } from '@wework/decode-issues';

/** One decoding problem, located by a dotted path. */
export interface DecodeIssue {
  readonly path: string;
  readonly message: string;
}

/** An object codec that rejects unknown keys: every unknown key and every bad known one is an error with its path. */
export function exact<R extends t.Props, O extends t.Props>(
  name: string,
  required: R,
  optional: O,
): t.Type<t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>, unknown, unknown> {
  const requiredCodec = t.type(required);
  const optionalCodec = t.partial(optional);
  const inner = t.intersection([requiredCodec, optionalCodec]);
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  return new t.Type(
    name,
    (u): u is t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>> => inner.is(u),
    (u, context) => {
      if (!isRecord(u)) return t.failure(u, context, `expected an object`);
      const unknown: t.Errors = Object.keys(u)
        .filter((key) => !known.has(key))
        .map((key) => ({ value: u[key], context: [...context, { key, type: t.never, actual: u[key] }], message: `unknown key "${key}" (known: ${[...known].join(', ')})` }));
      // Validated separately (not through t.intersection) so error paths carry no member indices.
      const requiredPart = requiredCodec.validate(u, context);
      const optionalPart = optionalCodec.validate(u, context);
      if (unknown.length > 0 || requiredPart._tag === 'Left' || optionalPart._tag === 'Left') {
        return t.failures([...unknown, ...(requiredPart._tag === 'Left' ? requiredPart.left : []), ...(optionalPart._tag === 'Left' ? optionalPart.left : [])]);
      }
      return t.success({ ...requiredPart.right, ...optionalPart.right } as t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>);
    },
    (a) => inner.encode(a),
  );
}

/** Turns io-ts errors into path-located messages, most specific first, without duplicates. */
export function formatIssues(errors: t.Errors): ReadonlyArray<DecodeIssue> {
  const seen = new Set<string>();
  const issues: DecodeIssue[] = [];
  for (const error of errors) {
    // Keys under a union name the member tried, not a place in the document: leave them out.
    const path = issuePath(error.context, { members: 'skipUnions' });
    const message = error.message ?? `expected ${expectedTypeName(error) ?? 'a valid value'}, got ${describeKind(error.value)}`;
    const line = `${path || '(root)'}: ${message}`;
    if (seen.has(line)) continue;
    seen.add(line);
    issues.push({ path: path || '(root)', message });
  }
  return issues;
}
