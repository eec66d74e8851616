import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { readCloudConfig } from '../src/CloudConfig.js';

const host = { userHome: '/home/ada', cwd: '/srv/jobs' };

describe('readCloudConfig', () => {
  it('defaults to Codex-only mode and homes under the executor home', () => {
    expect(readCloudConfig({}, host)).toEqual(
      E.right({ runtimeTarget: 'codex', executorHome: '/home/ada/.wework/executor', claudeHome: '/home/ada/.wework/executor/claude', workspace: '/srv/jobs', userHome: '/home/ada', codexPath: null }),
    );
    expect(readCloudConfig({ WEGENT_PLUGIN_RUNTIME_TARGET: '' }, host)).toMatchObject({ right: { runtimeTarget: 'codex' } });
  });

  it('takes the variables it is given', () => {
    expect(readCloudConfig({ WEGENT_PLUGIN_RUNTIME_TARGET: 'dual', WEWORK_EXECUTOR_HOME: '/x', WEWORK_CLAUDE_HOME: '/c', WEWORK_WORKSPACE: '/w', WEWORK_CODEX_PATH: '/opt/codex' }, host)).toEqual(
      E.right({ runtimeTarget: 'dual', executorHome: '/x', claudeHome: '/c', workspace: '/w', userHome: '/home/ada', codexPath: '/opt/codex' }),
    );
  });

  it('refuses an unknown runtime target and relative paths', () => {
    expect(readCloudConfig({ WEGENT_PLUGIN_RUNTIME_TARGET: 'claude' }, host)).toMatchObject({ left: { _tag: 'InvalidSetting', variable: 'WEGENT_PLUGIN_RUNTIME_TARGET' } });
    expect(readCloudConfig({ WEWORK_CLAUDE_HOME: 'claude' }, host)).toMatchObject({ left: { variable: 'WEWORK_CLAUDE_HOME' } });
    expect(readCloudConfig({ WEWORK_CODEX_PATH: 'codex' }, host)).toMatchObject({ left: { variable: 'WEWORK_CODEX_PATH' } });
  });
});
