/**
 * Refinements that carry their rule as data: a string's length bounds and pattern, a number's
 * integrality and bounds. The predicate is derived from the constraints, so that the codec and its JSON
 * Schema (`toJsonSchema`) say the same thing from one declaration.
 *
 * The constraints mean what JSON Schema's keywords of the same names mean: lengths count Unicode code
 * points (not UTF-16 units), a pattern is an ECMAScript regular expression run with the `u` flag and is
 * not anchored (write `^…$`), and `integer` is a number with no fractional part.
 *
 * Every function here is pure: constraints in, a codec or a verdict out.
 */
import * as t from 'io-ts';

/** What a constrained string must satisfy (each bound inclusive). */
export interface StringConstraints {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An ECMAScript regular expression (run with the `u` flag; not anchored unless it says so). */
  readonly pattern?: string;
}

/** What a constrained number must satisfy (each bound inclusive). */
export interface NumberConstraints {
  /** No fractional part (JSON Schema's `integer`). */
  readonly integer?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** The constraints a {@link ConstrainedType} carries, with the JSON type they apply to. */
export type Constraints = ({ readonly type: 'string' } & StringConstraints) | ({ readonly type: 'number' } & NumberConstraints);

/** An io-ts refinement of `string` or `number` whose rule is its {@link Constraints}. */
export interface ConstrainedType<C extends t.StringC | t.NumberC, A> extends t.RefinementType<C, A, t.OutputOf<C>, unknown> {
  /** The rule the predicate checks, as data. */
  readonly constraints: Constraints;
}

/** How many Unicode code points `text` has (what JSON Schema's `minLength` / `maxLength` count). */
const codePoints = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

/**
 * Whether `text` satisfies `constraints`.
 * @example
 * ```ts
 * satisfiesString({ maxLength: 2 }, '😀😀'); // true: two code points
 * satisfiesString({ pattern: '^a' }, 'ba'); // false
 * ```
 */
export const satisfiesString = (constraints: StringConstraints, text: string): boolean => stringRule(constraints)(text);

/** The check of `constraints`, its pattern compiled once. */
const stringRule = (constraints: StringConstraints): ((text: string) => boolean) => {
  const pattern = constraints.pattern === undefined ? null : new RegExp(constraints.pattern, 'u');
  const needsLength = constraints.minLength !== undefined || constraints.maxLength !== undefined;
  return (text) => {
    const length = needsLength ? codePoints(text) : 0;
    return (
      (constraints.minLength === undefined || length >= constraints.minLength) &&
      (constraints.maxLength === undefined || length <= constraints.maxLength) &&
      (pattern === null || pattern.test(text))
    );
  };
};

/**
 * Whether `value` satisfies `constraints`.
 * @example
 * ```ts
 * satisfiesNumber({ integer: true, minimum: 1 }, 2); // true
 * satisfiesNumber({ integer: true }, 1.5); // false
 * ```
 */
export const satisfiesNumber = (constraints: NumberConstraints, value: number): boolean =>
  (constraints.integer !== true || Number.isInteger(value)) &&
  (constraints.minimum === undefined || value >= constraints.minimum) &&
  (constraints.maximum === undefined || value <= constraints.maximum);

const refine = <C extends t.StringC | t.NumberC, A>(base: C, holds: (value: t.TypeOf<C>) => boolean, constraints: Constraints, name: string): ConstrainedType<C, A> => {
  const predicate = (value: t.TypeOf<C>): value is A & t.TypeOf<C> => holds(value);
  const codec = new t.RefinementType<C, A, t.OutputOf<C>, unknown>(
    name,
    (u): u is A => base.is(u) && predicate(u),
    (u, c) => {
      const decoded = base.validate(u, c);
      if (decoded._tag === 'Left') return decoded;
      return predicate(decoded.right) ? t.success(decoded.right as A) : t.failure(decoded.right, c);
    },
    // A string or a number encodes as itself.
    (a) => a as unknown as t.OutputOf<C>,
    base,
    holds as unknown as (a: A) => boolean,
  );
  return Object.assign(codec, { constraints });
};

/**
 * A string codec that takes exactly the strings satisfying `constraints`; `A` may be a branded string.
 * @example
 * ```ts
 * const Slug = constrainedString({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9-]+$' }, 'Slug');
 * Slug.decode('my-plugin'); // right('my-plugin')
 * Slug.decode('My Plugin'); // left(...)
 * Slug.constraints; // { type: 'string', minLength: 1, maxLength: 32, pattern: '^[a-z0-9-]+$' }
 * ```
 */
export const constrainedString = <A extends string = string>(constraints: StringConstraints, name: string): ConstrainedType<t.StringC, A> =>
  refine<t.StringC, A>(t.string, stringRule(constraints), { type: 'string', ...constraints }, name);

/**
 * A number codec that takes exactly the numbers satisfying `constraints`; `A` may be a branded number.
 * @example
 * ```ts
 * const Port = constrainedNumber({ integer: true, minimum: 0, maximum: 65535 }, 'Port');
 * Port.decode(8080); // right(8080)
 * Port.decode(-1); // left(...)
 * ```
 */
export const constrainedNumber = <A extends number = number>(constraints: NumberConstraints, name: string): ConstrainedType<t.NumberC, A> =>
  refine<t.NumberC, A>(t.number, (value) => satisfiesNumber(constraints, value), { type: 'number', ...constraints }, name);
