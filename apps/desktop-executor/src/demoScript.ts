/**
 * The embedded default model of the demo: a script for the scripted model, so the demo runs with no
 * OpenAI account and no network.
 */
import { callTool, respond, say, type Script } from '@wework/scripted-model';

/** The user's message in the demo conversation. */
export const DEMO_PROMPT = 'Check that the sample plugin answers.';

/** One turn: the model calls the sample plugin's `echo` tool, then answers with what it returned. */
export const demoScript: Script = [
  respond(callTool('forms', 'echo', { text: 'Hello from the sample plugin' })),
  respond(say('The sample plugin answered: "Hello from the sample plugin".')),
];
