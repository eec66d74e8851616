/**
 * The embedded default model of the demo: a script for the scripted model, so the demo runs with no
 * OpenAI account and no network.
 */
import { callTool, respond, say, shell, type Script } from '@wework/scripted-model';

/** The user's message in the demo conversation. */
export const DEMO_PROMPT = 'Check that the sample plugin answers.';

/** One turn: the model calls the sample plugin's `echo` tool, then answers with what it returned. */
export const demoScript: Script = [
  respond(callTool('forms', 'echo', { text: 'Hello from the sample plugin' })),
  respond(say('The sample plugin answered: "Hello from the sample plugin".')),
];

/**
 * The web demo's model (`npm run web`): each message the user sends gets the next of these turns, in
 * order — the strategy form, the release form (several questions, an integer with a range), the
 * regions multi-select (one to three), then a command that needs approval in Read only or Workspace
 * mode. After the last one the model has nothing more to say (the turn fails); restart the demo.
 */
export const webDemoScript: Script = [
  respond(callTool('forms', 'choose_strategy')),
  respond(say('The plugin has your answer: see its tool result above.')),
  respond(callTool('forms', 'configure_release')),
  respond(say('The release is configured as you chose.')),
  respond(callTool('forms', 'roll_out')),
  respond(say('Rolling out to the regions you picked.')),
  respond(shell('touch approved.txt', { sandboxPermissions: 'require_escalated', justification: 'the task needs this file' })),
  respond(say('File created.')),
];
