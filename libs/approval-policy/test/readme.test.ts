/**
 * The example at the top of README.md, kept compiling and passing.
 */
import { expect, test } from 'vitest';
import type { ConfigEdit } from '@wework/codex-protocol';
import { applyPermissionMode, permissionParamsForTask, refreshBuiltInServers, weworkInitializeCapabilities } from '../src/index.js';

test('README example', () => {
  const task: unknown = { modelSelection: { model: 'gpt-5.5', options: {} } };
  const currentConfig = { model: 'gpt-5.5', mcp_servers: { wegent_apps: { command: 'old', default_tools_approval_mode: 'prompt' } } };
  const written: Array<{ edits: ReadonlyArray<ConfigEdit> }> = [];
  const sendConfigBatchWrite = (params: { edits: ReadonlyArray<ConfigEdit> }) => written.push(params);

  // --- README example begins ---
  // initialize: the experimental API, no openai/form.
  const capabilities = weworkInitializeCapabilities(); // { experimentalApi: true, requestAttestation: false }

  // thread/start (also thread/resume, thread/fork, turn/start) from the persisted task's mode.
  const { mode } = permissionParamsForTask(task, 'thread/start'); // no mode → Full access; unknown → Read only + warning
  const params = applyPermissionMode({ cwd: '/repo' }, mode);
  // Full access → { cwd, permissions: ':danger-full-access', approvalPolicy: { granular: { ..., mcp_elicitations: true } } }

  // Connector configure / app sync: refresh the built-in server, keep the user's explicit "prompt".
  const refresh = refreshBuiltInServers(currentConfig, [{ name: 'wegent_apps', entry: { command: 'wegent-apps-mcp' } }]);
  if (refresh._tag === 'Right') sendConfigBatchWrite({ edits: refresh.right.edits }); // [] when nothing changed
  // --- README example ends ---

  expect(capabilities).toEqual({ experimentalApi: true, requestAttestation: false });
  expect(params).toEqual({
    cwd: '/repo',
    permissions: ':danger-full-access',
    approvalPolicy: { granular: { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true } },
  });
  expect(written).toEqual([
    {
      edits: [
        { keyPath: 'mcp_servers.wegent_apps.command', value: 'wegent-apps-mcp', mergeStrategy: 'replace' },
        { keyPath: 'features', value: { tool_call_mcp_elicitation: false }, mergeStrategy: 'replace' },
      ],
    },
  ]);
});
