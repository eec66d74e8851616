/**
 * The cost of the elicitation mapping, against the cheapest thing an executor must do anyway with
 * the same messages: `JSON.parse` + `JSON.stringify` of the request and of the answer.
 *
 * Measured: `handleElicitationRequest` (a realistic Codex form request with five questions → a
 * card) plus `responseForCard` (the host's answers → the ElicitResult), on already parsed messages.
 * Batches of both run as interleaved pairs, so they see the same machine load; the result is the
 * median of the per-pair ratios of the per-operation times (goal: ≤ 1.0×).
 */
import { performance } from 'node:perf_hooks';
import { handleElicitationRequest, responseForCard } from '@wework/elicitation-mapper';
import { comparePaired, verdictLine } from './stats.js';

const WARMUP_BATCHES = 50;
const MEASURED_BATCHES = Number(process.env['BENCH_ELICITATION_BATCHES'] ?? 100);
const OPS_PER_BATCH = 200;

/** A form as Codex forwards it: keys sorted, Codex's envelope around the plugin's schema. */
const requestMessage = {
  id: 7,
  method: 'mcpServer/elicitation/request',
  params: {
    threadId: '01a22ccb-7589-79d0-ac7e-15c9d86a5261',
    turnId: '01a22ccb-7856-70a1-8acb-24c6961fb4d7',
    serverName: 'deploy_tools',
    environmentId: null,
    mode: 'form',
    _meta: null,
    message: 'Configure the deployment of the api service',
    requestedSchema: {
      type: 'object',
      properties: {
        confirm: { type: 'boolean', title: 'Confirm', description: 'Deploy now? Running jobs are drained first.' },
        notes: { type: 'string', title: 'Release notes', description: 'Written to the release record.', maxLength: 500 },
        regions: {
          type: 'array',
          title: 'Regions',
          description: 'Where to roll out.',
          items: {
            anyOf: [
              { const: 'eu-west', title: 'Europe (West)' },
              { const: 'us-east', title: 'America (East)' },
              { const: 'ap-south', title: 'Asia (South)' },
              { const: 'sa-east', title: 'South America' },
            ],
          },
          minItems: 1,
        },
        replicas: { type: 'integer', title: 'Replicas', description: 'Instances per region.', minimum: 1, maximum: 20, default: 3 },
        target: {
          type: 'string',
          title: 'Deployment target',
          description: 'Select the target environment for this deployment.',
          oneOf: [
            { const: 'staging', title: 'Staging' },
            { const: 'canary', title: 'Canary' },
            { const: 'production', title: 'Production' },
          ],
        },
      },
      required: ['confirm', 'regions', 'target'],
    },
  },
};

/** The host's answers to that card (labels for choices, text for inputs). */
const answerMessage = {
  answers: {
    confirm: { answers: ['true'] },
    notes: { answers: ['Fix login failures and improve startup speed'] },
    regions: { answers: ['Asia (South)', 'Europe (West)'] },
    replicas: { answers: ['4'] },
    target: { answers: ['Production'] },
  },
};

const requestLine = JSON.stringify(requestMessage);
const answerLine = JSON.stringify(answerMessage);

/** Keeps results alive so that no work can be skipped. */
let sink = 0;

const jsonRoundTrip = (): void => {
  const request = JSON.parse(requestLine) as typeof requestMessage;
  const answer = JSON.parse(answerLine) as typeof answerMessage;
  sink += JSON.stringify(request).length + JSON.stringify(answer).length;
};

const mapping = (): void => {
  const decision = handleElicitationRequest(requestMessage.params);
  if (decision._tag !== 'ShowCard') throw new Error(`the benchmark request must map: ${decision.reason.message}`);
  const result = responseForCard(decision.card, answerMessage);
  if (result.action !== 'accept') throw new Error('the benchmark answers must be accepted');
  sink += decision.card.questions.length + result.action.length;
};

/** Microseconds per operation of one batch. */
const batch = (op: () => void): number => {
  const t0 = performance.now();
  for (let i = 0; i < OPS_PER_BATCH; i += 1) op();
  return ((performance.now() - t0) * 1000) / OPS_PER_BATCH;
};

/** Runs the benchmark and returns the lines to print. */
export async function benchElicitationMapping(): Promise<string[]> {
  const result = await comparePaired(() => batch(mapping), () => batch(jsonRoundTrip), { pairs: MEASURED_BATCHES, warmup: WARMUP_BATCHES, maxBatches: 5 });
  return [
    `elicitation mapping (Codex form request with 5 questions → card → ElicitResult), in process; request ${requestLine.length} bytes, answer ${answerLine.length} bytes`,
    verdictLine('handleElicitationRequest + responseForCard / JSON.parse + JSON.stringify of both', result, { atMost: 1.0 }),
    `    mapping median ${result.a.median.toFixed(2)} µs/op · JSON round trip median ${result.b.median.toFixed(2)} µs/op (batches of ${OPS_PER_BATCH})`,
    ...(sink === 0 ? ['  (no work was measured)'] : []),
  ];
}
