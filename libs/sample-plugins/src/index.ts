/**
 * `@wework/sample-plugins`: real MCP servers over stdio for end-to-end tests and demos.
 * The forms plugin asks the user through MCP form elicitation using the examples of the plugin
 * interactive forms spec, and reports exactly what came back. The connector plugin needs a device
 * login and reports `connector_auth_required` until it has one.
 *
 * @packageDocumentation
 */
export { checkPluginBuilt, formsPluginCommand, samplePluginCommand, type PluginCommand } from './PluginCommand.js';
