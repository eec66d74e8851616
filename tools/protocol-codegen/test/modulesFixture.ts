/** A small protocol tree for the module plan: two features sharing an enum. */
import { readProtocolModel } from '../src/protocolModel.mjs';
import { planGeneration } from '../src/selection.mjs';

const tree = new Map([
  ['ClientRequest.ts', 'import type { ThreadStartParams } from "./ThreadStartParams.js";\nimport type { RequestId } from "./RequestId.js";\nexport type ClientRequest = { "method": "thread/start", id: RequestId, params: ThreadStartParams, };\n'],
  ['ClientNotification.ts', 'export type ClientNotification = { "method": "initialized" };\n'],
  ['ServerRequest.ts', 'import type { AskParams } from "./AskParams.js";\nimport type { RequestId } from "./RequestId.js";\nexport type ServerRequest = { "method": "item/ask", id: RequestId, params: AskParams, };\n'],
  ['ServerNotification.ts', 'import type { ErrorNotification } from "./ErrorNotification.js";\nexport type ServerNotification = { "method": "error", "params": ErrorNotification };\n'],
  ['RequestId.ts', 'export type RequestId = string | number;\n'],
  ['Status.ts', 'export type Status = "idle" | "active";\n'],
  ['ThreadStartParams.ts', 'import type { Status } from "./Status.js";\nexport type ThreadStartParams = { cwd: string | null, status: Status, };\n'],
  ['ThreadStartResponse.ts', 'export type ThreadStartResponse = { id: string, };\n'],
  ['AskParams.ts', 'import type { Status } from "./Status.js";\nexport type AskParams = { question: string, status: Status, };\n'],
  ['AskResponse.ts', 'export type AskResponse = { answer: string, };\n'],
  ['ErrorNotification.ts', 'export type ErrorNotification = { message: string, };\n'],
]);

const config = {
  clientRequests: ['*'],
  clientNotifications: ['*'],
  serverRequests: ['*'],
  serverNotifications: ['*'],
  responseTypeOverrides: {},
  descriptorNameOverrides: { error: 'ErrorNotice' },
  nameClashPreference: ['v2', ''],
  nameClashPrefixes: { '': 'Core', v2: 'V2' },
};

/** The model and generation plan of the fixture tree. */
export function readProjectModel() {
  const model = readProtocolModel(tree);
  return { model, plan: planGeneration(model, config) };
}
