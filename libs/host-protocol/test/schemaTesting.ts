/**
 * What the schema tests share: an ajv (2020-12) that holds a schema document, and fast-check mutations of
 * valid JSON values (a property dropped or added, a value replaced by one of another type, by arbitrary
 * JSON or by another string the document uses, an array item dropped or duplicated).
 */
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a devDependency: the tests validate the generated documents with a JSON Schema validator of another origin
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type * as t from 'io-ts';

export type { ValidateFunction };

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * An ajv for JSON Schema 2020-12 in strict mode (unknown keywords refused), union types allowed, and open
 * tuples allowed (io-ts strips extra elements, so a tuple's schema leaves them free).
 */
export const newAjv = (): Ajv2020 => new Ajv2020({ strict: true, allowUnionTypes: true, strictTuples: false, allErrors: false });

/** Whether `codec` decodes `value`. */
export const decodes = (codec: t.Mixed, value: unknown): boolean => E.isRight(codec.decode(value));

type Path = ReadonlyArray<string | number>;

/** Every place in `value`: the root, each property and each array item, depth first. */
const places = (value: Json, path: Path = []): ReadonlyArray<Path> => {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, i) => places(item, [...path, i]))];
  if (value !== null && typeof value === 'object') return [path, ...Object.entries(value).flatMap(([key, inner]) => places(inner, [...path, key]))];
  return [path];
};

/** Every string in `value`, keys included: the pool that swaps one enum literal or tag for another. */
export const stringsOf = (value: Json): ReadonlyArray<string> => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsOf(inner)]);
  return [];
};

const get = (value: Json, path: Path): Json | undefined => {
  let at: Json | undefined = value;
  for (const step of path) {
    if (at === null || typeof at !== 'object' || at === undefined) return undefined;
    at = Array.isArray(at) ? at[step as number] : (at as { [key: string]: Json })[step as string];
  }
  return at;
};

/** `value` with the place at `path` rewritten (`undefined` from `change` removes it). */
const rewrite = (value: Json, path: Path, change: (at: Json) => Json | undefined): Json | undefined => {
  const [step, ...rest] = path;
  if (step === undefined) return change(value);
  if (Array.isArray(value) && typeof step === 'number') {
    const inner = value[step];
    if (inner === undefined) return value;
    const next = rewrite(inner, rest, change);
    return next === undefined ? value.filter((_, i) => i !== step) : value.map((item, i) => (i === step ? next : item));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof step === 'string') {
    const inner = value[step];
    if (inner === undefined) return value;
    const next = rewrite(inner, rest, change);
    const copy: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) if (key !== step) copy[key] = item;
    if (next !== undefined) copy[step] = next;
    return copy;
  }
  return value;
};

/** One mutation, applied at the `at`-th place (modulo the number of places). */
export type Mutation =
  | { readonly kind: 'drop'; readonly at: number }
  | { readonly kind: 'replace'; readonly at: number; readonly by: Json }
  | { readonly kind: 'swapType'; readonly at: number; readonly to: number }
  | { readonly kind: 'otherString'; readonly at: number; readonly pick: number; readonly fresh: string }
  | { readonly kind: 'addKey'; readonly at: number; readonly key: string; readonly by: Json }
  | { readonly kind: 'duplicate'; readonly at: number }
  | { readonly kind: 'number'; readonly at: number; readonly by: number };

const OTHER_TYPES: ReadonlyArray<Json> = [null, true, 0, 1.5, -1, '', 'x', [], {}, [1], { a: 1 }];

/** Applies `mutation` to `value`; `pool` holds the strings to swap in. */
export const mutate = (value: Json, mutation: Mutation, pool: ReadonlyArray<string>): Json => {
  const all = places(value);
  const path = all[mutation.at % all.length] ?? [];
  const result = ((): Json | undefined => {
    switch (mutation.kind) {
      case 'drop':
        return path.length === 0 ? value : rewrite(value, path, () => undefined);
      case 'replace':
        return rewrite(value, path, () => mutation.by);
      case 'swapType':
        return rewrite(value, path, () => OTHER_TYPES[mutation.to % OTHER_TYPES.length] ?? null);
      case 'otherString':
        return rewrite(value, path, () => (pool.length > 0 && mutation.pick % 4 !== 0 ? (pool[mutation.pick % pool.length] ?? mutation.fresh) : mutation.fresh));
      case 'addKey':
        return rewrite(value, path, (at) => (at !== null && typeof at === 'object' && !Array.isArray(at) ? { ...at, [mutation.key]: mutation.by } : at));
      case 'duplicate': {
        const parent = path.slice(0, -1);
        const last = path[path.length - 1];
        const container = get(value, parent);
        if (!Array.isArray(container) || typeof last !== 'number') return value;
        return rewrite(value, parent, (at) => (Array.isArray(at) ? [...at, at[last] ?? null] : at));
      }
      case 'number':
        return rewrite(value, path, () => mutation.by);
    }
  })();
  return result === undefined ? null : result;
};

const json: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as Json);

/** An arbitrary mutation. */
export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), by: json }),
  fc.record({ kind: fc.constant('swapType' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('otherString' as const), at: fc.nat(), pick: fc.nat(), fresh: fc.string({ maxLength: 6 }) }),
  fc.record({ kind: fc.constant('addKey' as const), at: fc.nat(), key: fc.constantFrom('extra', 'version', 'packagePath', 'error', 'name', 'path', 'seq', 'type'), by: json }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('number' as const),
    at: fc.nat(),
    by: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, 2_592_000, 2_592_001, 9007199254740991, 9007199254740992, -0), fc.double({ noNaN: true, noDefaultInfinity: true })),
  }),
);

/** One to three mutations. */
export const mutationsArbitrary: fc.Arbitrary<ReadonlyArray<Mutation>> = fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 });

/** `value` after `mutations`, in order. */
export const mutateAll = (value: Json, mutations: ReadonlyArray<Mutation>, pool: ReadonlyArray<string>): Json =>
  mutations.reduce((at, mutation) => mutate(at, mutation, pool), value);
