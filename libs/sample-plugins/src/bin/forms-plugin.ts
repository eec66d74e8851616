#!/usr/bin/env node
/**
 * The forms plugin as an executable MCP server over stdio. It exits when its stdin closes or
 * on SIGTERM/SIGINT.
 */
import { createFormsServer } from '../forms/FormsServer.js';
import { serveOverStdio } from './serveOverStdio.js';

serveOverStdio(createFormsServer().server, 'wework-forms-plugin');
