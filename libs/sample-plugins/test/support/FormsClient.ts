/**
 * An MCP SDK client for the forms plugin whose answer to each elicitation a test sets
 * beforehand, and which records every elicitation request it receives.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** How the client answers an elicitation: a result, or `never` to leave it unanswered. */
export type Answer = ElicitResult | 'never';

export interface FormsClient {
  readonly client: Client;
  /** Elicitation params received, in order. */
  readonly elicitations: ElicitRequest['params'][];
  answerWith(answer: Answer): void;
  /** Calls a tool and returns its first text content and `isError`. */
  call(name: string, args?: Record<string, unknown>): Promise<{ readonly text: string; readonly isError: boolean }>;
}

export async function connectFormsClient(transport: Transport, options: { readonly elicitation: boolean }): Promise<FormsClient> {
  const client = new Client({ name: 'forms-test-client', version: '0.0.0' }, { capabilities: options.elicitation ? { elicitation: { form: {} } } : {} });
  const elicitations: ElicitRequest['params'][] = [];
  let answer: Answer = { action: 'cancel' };
  if (options.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicitations.push(request.params);
      return answer === 'never' ? new Promise<ElicitResult>(() => undefined) : answer;
    });
  }
  await client.connect(transport);
  return {
    client,
    elicitations,
    answerWith: (a) => {
      answer = a;
    },
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as ReadonlyArray<{ type: string; text?: string }>;
      return { text: content.find((c) => c.type === 'text')?.text ?? '', isError: result.isError === true };
    },
  };
}
