/**
 * `@wework/image-preprocess/node`: the sharp and file-system implementation — header-only
 * measuring, reduced model-input copies, and turn-scoped directories.
 *
 * @packageDocumentation
 */
export { TURN_DIRECTORY_PREFIX, createTurnImageStore, type TurnImageStore, type TurnImageStoreOptions, type TurnImages } from './TurnImageStore.js';
export { measureImage, type MeasuredImage } from './ImageFile.js';
