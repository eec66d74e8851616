/**
 * `@wework/test-support`: fixtures shared by the tests of the libraries and apps, imported from test
 * files only — a directory-tree listing for "nothing changed" assertions, Codex auth.json files with a
 * canary in every secret, local marketplaces, a Codex sandbox with the scripted model, and a bounded
 * poll that names what it waits for.
 */
export { hashTrees, listTree, type ListTreeOptions } from './tree.js';
export { chatgptAuthJson, idTokenOf, TOKEN_CANARY, type FakeChatgptAccount } from './authFixtures.js';
export { addFixturePlugin, marketplaceManifest, writeLocalMarketplace, type FixtureMarketplace, type FixturePlugin, type FixtureSkill } from './localMarketplace.js';
export { startCodexSandbox, writeCodexConfig, type CodexConfigOptions, type CodexSandbox, type CodexSandboxOptions, type SandboxLayout } from './codexSandbox.js';
export { collectedAfterGc } from './gc.js';
export { until } from './until.js';
