/**
 * Purity rules for `type:pure` libraries: no Node built-ins, no IO packages, no process,
 * clock, timers or network globals. A pure library's `src/node/` folder is its Node
 * implementation of its ports and is exempt; nothing else in the library may import it.
 */
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** Roots (relative to the workspace) of every project tagged `type:pure`. */
export function pureProjectRoots(workspaceRoot) {
  const roots = [];
  for (const group of ['libs']) {
    const dir = join(workspaceRoot, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const projectFile = join(dir, name, 'project.json');
      if (!existsSync(projectFile)) continue;
      const project = JSON.parse(readFileSync(projectFile, 'utf8'));
      if ((project.tags ?? []).includes('type:pure')) roots.push(`${group}/${name}`);
    }
  }
  return roots;
}

const nodeBuiltins = [...new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))];

/** Packages that do IO and so never belong in pure code. */
const ioPackages = ['vscode-jsonrpc', 'vscode-jsonrpc/*', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', '@openai/codex'];

export const pureRules = {
  'no-restricted-imports': [
    'error',
    {
      paths: nodeBuiltins.map((name) => ({ name, message: 'A type:pure library may not import Node built-ins: put IO behind a port in src/node/.' })),
      patterns: [
        { group: ['node:*'], message: 'A type:pure library may not import Node built-ins.' },
        { group: ioPackages, message: 'A type:pure library may not import IO packages.' },
        { group: ['**/node/*', '**/node'], message: 'Pure modules may not import the Node implementation of a port.' },
      ],
    },
  ],
  'no-restricted-globals': [
    'error',
    ...['process', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'fetch', 'require', 'performance', 'crypto', '__dirname', '__filename'].map(
      (name) => ({ name, message: `'${name}' is IO; a type:pure library receives it through a port.` }),
    ),
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Clock reads go through a port in pure code.' },
    { object: 'Math', property: 'random', message: 'Randomness goes through a port in pure code.' },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Clock reads go through a port in pure code.' },
  ],
};
