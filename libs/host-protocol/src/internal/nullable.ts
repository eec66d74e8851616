/**
 * The codec of a value or `null`. Pure.
 */
import * as t from 'io-ts';

/** `codec` or `null`. */
export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
