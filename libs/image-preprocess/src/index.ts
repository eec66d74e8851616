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
export { ModelCategory, modelCategoryOf } from './ModelCategory.js';
export { planImage, type ImagePlan, type PlanError, type PlanInput, type PlanOptions } from './ImagePlan.js';
export { describeImageError, type ImageError, type PreparedImage } from './ImageError.js';
