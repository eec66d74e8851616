/**
 * Building on first use: the generated codec modules and descriptors are values that cost
 * tens of milliseconds to build all at once, so each is built when first read, then kept.
 *
 * Every function here is pure: it defers building a value, it does no IO.
 */
import type * as t from 'io-ts';
import type {
  ClientNotificationDescriptor,
  ClientRequestDescriptor,
  ServerNotificationDescriptor,
  ServerRequestDescriptor,
} from '../Descriptor.js';

/**
 * A function that builds its value on the first call and returns the same value afterwards.
 * @example
 * ```ts
 * const table = lazyTable(() => ({ answer: 42 }));
 * table() === table(); // true, built once
 * ```
 */
export const lazyTable = <A>(build: () => A): (() => A) => {
  let built: { readonly value: A } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
};

type Codec<A> = t.Type<A, unknown, unknown>;

/** A client request descriptor whose codecs are built when first read. */
export const lazyClientRequest = <M extends string, P, R>(
  method: M,
  params: () => Codec<P>,
  result: () => Codec<R>,
): ClientRequestDescriptor<M, P, R> => {
  const p = lazyTable(params);
  const r = lazyTable(result);
  return {
    kind: 'clientRequest',
    method,
    get params() {
      return p();
    },
    get result() {
      return r();
    },
  };
};

/** A client notification descriptor whose codec is built when first read. */
export const lazyClientNotification = <M extends string, P>(method: M, params: () => Codec<P>): ClientNotificationDescriptor<M, P> => {
  const p = lazyTable(params);
  return {
    kind: 'clientNotification',
    method,
    get params() {
      return p();
    },
  };
};

/** A server request descriptor whose codecs are built when first read. */
export const lazyServerRequest = <M extends string, P, R>(
  method: M,
  params: () => Codec<P>,
  result: () => Codec<R>,
): ServerRequestDescriptor<M, P, R> => {
  const p = lazyTable(params);
  const r = lazyTable(result);
  return {
    kind: 'serverRequest',
    method,
    get params() {
      return p();
    },
    get result() {
      return r();
    },
  };
};

/** A server notification descriptor whose codec is built when first read. */
export const lazyServerNotification = <M extends string, P>(method: M, params: () => Codec<P>): ServerNotificationDescriptor<M, P> => {
  const p = lazyTable(params);
  return {
    kind: 'serverNotification',
    method,
    get params() {
      return p();
    },
  };
};
