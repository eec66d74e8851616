/**
 * fast-check arbitraries of config.toml texts, from `@wework/config-toml/testing`, for property
 * tests of code that reads or edits them.
 */
export { configDocumentArbitrary, stringContentArbitrary, writeTomlString, type GeneratedConfig, type TomlStringStyle } from '@wework/config-toml/testing';
