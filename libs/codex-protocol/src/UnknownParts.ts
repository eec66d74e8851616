/**
 * Where a decoded message carries what this version of the protocol does not know: each unknown
 * enum literal (an `UnknownLiteral`) and each unknown variant of a tagged union (an
 * `UnknownVariant`), with its path in the message. An unknown literal is a plain string
 * once decoded, so only the codec tells it apart; this walks the codec and the value together.
 *
 * A path names properties and array indices only (`$.item.content[0].type`); the keys of a record
 * read `*`, so that a path never carries a value of the message. The literal itself is the
 * unknown protocol word; {@link loggableLiteral} gives a form that is safe to log.
 *
 * Every function here is pure: a codec and a value in, a list out. Nothing throws.
 */
import type * as t from 'io-ts';
import { isUnknownVariant } from './OpenCodecs.js';
import { isRecord } from '@wework/decode-issues';

/** One unknown part of a decoded value. */
export interface UnknownPart {
  /** `literal`: an enum literal; `variant`: the tag of a tagged-union variant. */
  readonly kind: 'literal' | 'variant';
  /** Where it is: `$` is the value itself, then `.property`, `[index]`, `.*` for a record's keys. */
  readonly path: string;
  /** The name of the open codec that read it, or of the type it is inline in (`TurnStatus`, `ThreadItem`). */
  readonly codec: string;
  /** The unknown literal as received. Untrusted text: log {@link loggableLiteral} of it. */
  readonly literal: string;
}

/** Bounds of {@link unknownParts}. */
export interface UnknownPartsOptions {
  /** Most parts reported; default 16. */
  readonly maxParts?: number;
  /** Deepest nesting walked; default 64. */
  readonly maxDepth?: number;
}

/** The runtime shape of the io-ts codecs walked here, by `_tag` (as in `internal/arbitraryOf.ts`). */
type Node = t.Decoder<unknown, unknown> & {
  readonly _tag?: string;
  readonly name: string;
  readonly is: (u: unknown) => boolean;
  readonly keys?: Readonly<Record<string, unknown>>;
  readonly types?: ReadonlyArray<Node>;
  readonly props?: Readonly<Record<string, Node>>;
  readonly optional?: Readonly<Record<string, Node>>;
  readonly type?: Node;
  readonly codomain?: Node;
  readonly named?: Node;
  readonly rest?: Node;
  readonly declared?: ReadonlySet<string>;
  readonly tag?: string;
  readonly union?: Node;
};

interface Walk {
  readonly out: UnknownPart[];
  readonly maxParts: number;
  readonly maxDepth: number;
}

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);
const SAFE_PATH_KEY = /^[A-Za-z_$][\w$-]{0,63}$/;

/**
 * Where the walk is, written out only when a part is found there: most values hold nothing
 * unknown, so the walk builds no path strings for them. A step is a property name, an index, or
 * `*` for any key of a record.
 */
interface Path {
  readonly parent: Path | null;
  readonly step: string | number;
  /** Whether `step` is a property name (else an index, or `*`). */
  readonly property: boolean;
}

const ROOT: Path = { parent: null, step: '$', property: false };
const STAR = '*';

const propertyStep = (parent: Path, key: string): Path => ({ parent, step: key, property: true });
const indexStep = (parent: Path, index: number): Path => ({ parent, step: index, property: false });
const starStep = (parent: Path): Path => ({ parent, step: STAR, property: false });

/** `$`, then `.property` (`.?` for a key not safe to log), `[index]` and `.*`. */
function renderPath(path: Path): string {
  const { parent, step } = path;
  if (parent === null) return '$';
  const before = renderPath(parent);
  if (typeof step === 'number') return `${before}[${step}]`;
  if (!path.property) return `${before}.${STAR}`;
  return SAFE_PATH_KEY.test(step) ? `${before}.${step}` : `${before}.?`;
}

/**
 * The unknown parts of `value`, a value that `codec` decoded (not the raw JSON), in the order
 * they appear, at most `maxParts` of them. Empty when everything is known, and for a strict codec.
 * @example
 * ```ts
 * import { codecs, unknownParts } from '@wework/codex-protocol';
 * const turn = codecs.Turn.decode(raw); // raw.status is 'paused', a newer Codex's status
 * if (turn._tag === 'Right') unknownParts(codecs.Turn, turn.right);
 * // [{ kind: 'literal', path: '$.status', codec: 'TurnStatus', literal: 'paused' }]
 * ```
 */
export function unknownParts(codec: t.Decoder<unknown, unknown>, value: unknown, options: UnknownPartsOptions = {}): ReadonlyArray<UnknownPart> {
  const walk: Walk = { out: [], maxParts: options.maxParts ?? 16, maxDepth: options.maxDepth ?? 64 };
  visitNode(codec as Node, value, ROOT, 0, walk, (codec as Node).name);
  return walk.out;
}

/** Whether a decoded value carries anything that this version of the protocol does not know. */
export const hasUnknownParts = (codec: t.Decoder<unknown, unknown>, value: unknown): boolean => unknownParts(codec, value, { maxParts: 1 }).length > 0;

const LOGGABLE = /^[A-Za-z0-9_./:-]{1,64}$/;

/**
 * An unknown literal in a form safe for a log: the literal when it looks like a protocol word
 * (letters, digits, `_ . / : -`, at most 64 characters), else `<not a protocol word>`.
 * @example
 * ```ts
 * loggableLiteral('hologram'); // 'hologram'
 * loggableLiteral('rm -rf / # secret'); // '<not a protocol word>'
 * ```
 */
export const loggableLiteral = (literal: string): string => (LOGGABLE.test(literal) ? literal : '<not a protocol word>');

/** A codec name that is a type name (`ThreadItem`), not io-ts' spelled-out form of an inline codec. */
const TYPE_NAME = /^[A-Za-z_][\w]{0,99}$/;

/** Whether a codec's name is a type name, by codec: the walk meets the same codecs in every message. */
const namedCodecs = new WeakMap<Node, boolean>();
const hasTypeName = (codec: Node): boolean => {
  let named = namedCodecs.get(codec);
  if (named === undefined) {
    named = TYPE_NAME.test(codec.name);
    namedCodecs.set(codec, named);
  }
  return named;
};

function visitNode(codec: Node, value: unknown, path: Path, depth: number, walk: Walk, owner: string): void {
  if (walk.out.length >= walk.maxParts || depth > walk.maxDepth) return;
  const name = hasTypeName(codec) ? codec.name : owner;
  const visit = (inner: Node, item: unknown, at: Path): void => visitNode(inner, item, at, depth + 1, walk, name);
  switch (codec._tag) {
    case 'OpenKeyofType':
      if (typeof value === 'string' && !hasOwn(codec.keys ?? {}, value)) walk.out.push({ kind: 'literal', path: renderPath(path), codec: name, literal: value });
      return;
    case 'OpenUnionType':
      if (isUnknownVariant(value)) {
        walk.out.push({ kind: 'variant', path: renderPath(propertyStep(path, value.tag)), codec: name, literal: value.literal });
        return;
      }
      if (codec.union) visit(codec.union, value, path);
      return;
    case 'UnionType': {
      const member = (codec.types ?? []).find((m) => m.is(value));
      if (member) visit(member, value, path);
      return;
    }
    case 'IntersectionType':
      for (const member of codec.types ?? []) visit(member, value, path);
      return;
    case 'NullableType':
    case 'ReadonlyType':
    case 'ExactType':
    case 'RefinementType':
    case 'RecursiveType':
      if (value !== null && codec.type) visit(codec.type, value, path);
      return;
    case 'InterfaceType':
    case 'PartialType':
    case 'StrictType':
      if (!isRecord(value)) return;
      if (codec.props) visitProps(codec.props, value, path, depth, walk, name);
      if (codec.optional) visitProps(codec.optional, value, path, depth, walk, name);
      return;
    case 'ArrayType':
    case 'ReadonlyArrayType':
      if (Array.isArray(value) && codec.type) {
        const element = codec.type;
        value.forEach((item: unknown, index) => visit(element, item, indexStep(path, index)));
      }
      return;
    case 'DictionaryType':
      if (isRecord(value) && codec.codomain) {
        const codomain = codec.codomain;
        const any = starStep(path);
        for (const item of Object.values(value)) visit(codomain, item, any);
      }
      return;
    case 'WithRestType':
      if (!isRecord(value)) return;
      if (codec.named) visit(codec.named, value, path);
      if (codec.rest) {
        const rest = codec.rest;
        const declared = codec.declared ?? new Set<string>();
        const any = starStep(path);
        for (const [key, item] of Object.entries(value)) if (!declared.has(key)) visit(rest, item, any);
      }
      return;
    default:
      return;
  }
}

/** Visits the declared properties `value` has (the codec's own keys, without an array of entries). */
function visitProps(props: Readonly<Record<string, Node>>, value: Readonly<Record<string, unknown>>, path: Path, depth: number, walk: Walk, owner: string): void {
  for (const key in props) {
    const prop = props[key];
    if (prop !== undefined && hasOwn(props, key) && hasOwn(value, key)) visitNode(prop, value[key], propertyStep(path, key), depth + 1, walk, owner);
  }
}
