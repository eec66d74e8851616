#!/usr/bin/env node
/**
 * The connector plugin as an executable MCP server over stdio. Configured by its environment:
 * `CONNECTOR_LOGIN_FILE` (required), `CONNECTOR_PLUGIN_KEY` (default `team-chat@wegent`) and
 * `CONNECTOR_SLUG` (default `team-chat`). It exits when its stdin closes or on SIGTERM/SIGINT.
 */
import { createConnectorServer } from '../connector/ConnectorServer.js';
import { serveOverStdio } from './serveOverStdio.js';

const loginFile = process.env['CONNECTOR_LOGIN_FILE'];
if (loginFile === undefined || loginFile === '') {
  process.stderr.write('wework-connector-plugin: set CONNECTOR_LOGIN_FILE\n');
  process.exit(2);
}
const server = createConnectorServer({
  loginFile,
  pluginKey: process.env['CONNECTOR_PLUGIN_KEY'] ?? 'team-chat@wegent',
  connectorSlug: process.env['CONNECTOR_SLUG'] ?? 'team-chat',
});
serveOverStdio(server, 'wework-connector-plugin');
