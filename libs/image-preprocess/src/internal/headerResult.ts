/**
 * The result values of the header readers: what a header says, or why it could not be read.
 *
 * Plain data only: no IO happens here.
 */
import * as E from 'fp-ts/lib/Either.js';

/** The formats this parser reads (sharp's names). */
export type HeaderFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/** What the header says: stored (not displayed) size and the EXIF orientation when present. */
export interface ParsedHeader {
  readonly format: HeaderFormat;
  readonly width: number;
  readonly height: number;
  /** EXIF orientation 1–8; `undefined` when the image carries none. */
  readonly orientation: number | undefined;
}

/** The bytes start with no signature this parser knows. */
export interface Unrecognized {
  readonly _tag: 'Unrecognized';
}

/** The header goes on past the bytes given: read more of the file and ask again. */
export interface Incomplete {
  readonly _tag: 'Incomplete';
  readonly format: HeaderFormat;
}

/** A known format, but malformed or a variant left to the full decoder. */
export interface Unsupported {
  readonly _tag: 'Unsupported';
  readonly format: HeaderFormat;
  readonly reason: string;
}

/** Why the header could not be read here. */
export type HeaderError = Unrecognized | Incomplete | Unsupported;

/** The result of one format reader. */
export type HeaderResult = E.Either<HeaderError, ParsedHeader>;

/** `Incomplete` for `format`. */
export const incomplete = (format: HeaderFormat): HeaderResult => E.left({ _tag: 'Incomplete', format });

/** `Unsupported` for `format` with a short reason. */
export const unsupported = (format: HeaderFormat, reason: string): HeaderResult => E.left({ _tag: 'Unsupported', format, reason });

/** A successful read. */
export const parsed = (format: HeaderFormat, width: number, height: number, orientation?: number): HeaderResult =>
  E.right({ format, width, height, orientation });
