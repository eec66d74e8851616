/**
 * `@wework/image-preprocess`: what the model receives for an image attachment.
 *
 * Official Codex models receive the original image. Codex providers, local model interfaces and
 * cloud models receive a temporary copy whose short edge is at most 720 px (long edge not capped).
 * This entry is the pure decision ({@link planImage}) and the error and result types; the sharp
 * and file-system implementation is `@wework/image-preprocess/node`.
 *
 * Everything here is pure: no IO, no clock, no process.
 *
 * @packageDocumentation
 */
export { MODEL_CATEGORIES, ModelCategory, ModelSource, modelCategoryOf } from './ModelCategory.js';
export {
  DEFAULT_MAX_PIXELS,
  MAX_SHORT_EDGE,
  displayedSize,
  passThrough,
  planImage,
  swapsAxes,
  type ImageHeader,
  type ImagePlan,
  type InvalidDimensions,
  type PassThrough,
  type PlanError,
  type PlanInput,
  type PlanOptions,
  type Resize,
  type TooManyPixels,
} from './ImagePlan.js';
export {
  SUPPORTED_FORMATS,
  describeImageError,
  isSupportedFormat,
  outputFormatOf,
  type Corrupt,
  type Empty,
  type ImageError,
  type NotFound,
  type PreparedImage,
  type RemoveFailed,
  type SupportedFormat,
  type TooManyPixelsError,
  type Truncated,
  type TurnEnded,
  type UnsupportedFormat,
  type WriteFailed,
} from './ImageError.js';
