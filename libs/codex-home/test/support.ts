/**
 * Small helpers shared by the tests: run a TaskEither and unwrap its side (from `@wework/ports/testing`), build a home layout.
 */
import { layoutOf, type CodexHomeLayout } from '../src/HomeLayout.js';
import type { Platform } from '@wework/ports';

export { leftOf, rightOf } from '@wework/ports/testing';

/** The layout every in-memory test uses: Wework home `/wework/codex`, native home `/home/ada/.codex`. */
export const testLayout = (platform: Platform = 'unix'): CodexHomeLayout =>
  platform === 'unix' ? layoutOf('unix', '/wework/codex', '/home/ada/.codex') : layoutOf('windows', 'C:\\wework\\codex', 'C:\\Users\\ada\\.codex');

/** A string that must never appear in any value or error of the library: used as a token. */
export const CANARY = 'CANARY-TOKEN-7f3a9c-do-not-leak';
