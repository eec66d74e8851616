/**
 * `@wework/sample-plugins`: real MCP servers over stdio for end-to-end tests and demos.
 * The forms plugin asks the user through MCP form elicitation using the examples of the plugin
 * interactive forms spec, and reports exactly what came back. The connector plugin needs a device
 * login and reports `connector_auth_required` until it has one.
 *
 * @packageDocumentation
 */
export { checkPluginBuilt, formsPluginCommand, pluginBinPath, samplePluginCommand, type PluginCommand, type PluginNotBuilt, type SamplePluginName } from './PluginCommand.js';
export { authRequiredResult, createConnectorServer, type ConnectorServerOptions } from './connector/ConnectorServer.js';
export { FORMS_TOOLS, createFormsServer, type FormsPlugin, type FormsServerOptions, type FormsToolName } from './forms/FormsServer.js';
export {
  ClearCacheAnswer,
  CustomStrategyAnswer,
  DeploymentTargetAnswer,
  ReleaseConfigurationAnswer,
  ScaleServiceAnswer,
  ReleaseNoteAnswer,
  RolloutRegionsAnswer,
  StrategyAnswer,
  clearCacheForm,
  customStrategyForm,
  deploymentTargetForm,
  describeContentTypes,
  releaseConfigurationForm,
  scaleServiceForm,
  releaseNoteForm,
  resolveCustomStrategy,
  rolloutRegionsForm,
  strategyForm,
  type FormRequest,
  type ResolvedStrategy,
} from './forms/FormRequests.js';
export { NumericChoiceAnswer, formWithoutProperties, numericChoicesForm, type UnsupportedFormRequest } from './forms/UnsupportedFormRequests.js';
export { formatFormsReport, parseFormsReport, type ElicitationOutcome, type FormsReport, type FormsReportParseError } from './forms/FormsReport.js';
export { CONNECT_ACCOUNT_URL, connectAccountRequest, type UrlRequest } from './forms/UrlRequests.js';
