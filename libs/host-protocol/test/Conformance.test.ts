/**
 * The conformance of a recorded conversation: every part validates against its definition, a request the
 * executor refused as invalid is refused by the schema too, and what is outside the schema is skipped.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conformanceOf, hostProtocolSchema, type RecordedMessage } from '../src/index.js';
import { goldens } from './fixtures/messages.js';
import { newAjv } from './schemaTesting.js';

const schema = hostProtocolSchema();
if (E.isLeft(schema)) throw new Error('the protocol has a schema');
const ajv = newAjv();
ajv.addSchema(schema.right);
const validate = (ref: string, value: unknown): boolean => ajv.validate(ref, value) === true;

const first = (key: string): unknown => {
  const golden = goldens[key]?.[0];
  if (golden === undefined) throw new Error(`no golden ${key}`);
  return golden;
};
const toExecutor = (message: object): RecordedMessage => ({ direction: 'toExecutor', message: { jsonrpc: '2.0', ...message } });
const toHost = (message: object): RecordedMessage => ({ direction: 'toHost', message });

/** A conversation as a host and the executor have it: a task created, a form card answered, notifications, a refusal. */
const conversation: ReadonlyArray<RecordedMessage> = [
  toExecutor({ id: 1, method: 'task/create', params: first('TaskCreateParams') }),
  toHost({ id: 1, result: first('TaskCreateResult') }),
  toExecutor({ id: 2, method: 'message/send', params: first('MessageSendParams') }),
  toHost({ method: 'transcript/item', params: first('TranscriptItemParams') }),
  // The executor's own request ids live apart from the host's: card/show #1 is not task/create #1.
  toHost({ id: 1, method: 'card/show', params: first('CardShowParams') }),
  toExecutor({ id: 1, result: first('CardShowResult') }),
  toHost({ id: 2, result: first('MessageSendResult') }),
  toExecutor({ id: 3, method: 'task/stop', params: { taskId: 7 } }),
  toHost({ id: 3, error: { code: -32602, message: 'invalid params for task/stop: params.taskId: expected string, got a number', data: { tag: 'InvalidHostParams' } } }),
  toExecutor({ id: 4, method: 'task/stop', params: { taskId: 'gone' } }),
  toHost({ id: 4, error: { code: -32001, message: 'no task', data: { tag: 'TaskNotFound' } } }),
  toExecutor({ method: '$/cancelRequest', params: { id: 2 } }),
  toExecutor({ id: 5, method: 'no/such', params: {} }),
  toHost({ id: 5, error: { code: -32601, message: 'no such method in the host protocol', data: { tag: 'MethodNotFound' } } }),
];

describe('conformanceOf', () => {
  it('checks every part of a conversation that keeps to the protocol, and skips what the schema does not describe', () => {
    const verdict = conformanceOf(conversation, validate);
    expect(verdict.issues).toEqual([]);
    // 5 requests' params (one of them refused as expected), 4 results, 3 error data, 1 notification; skipped: $/cancelRequest, the unknown method.
    expect(verdict.checked).toBe(12);
    expect(verdict.skipped).toBe(2);
  });

  it('names a part that does not validate, and params the executor refused that the schema accepts', () => {
    const broken: ReadonlyArray<RecordedMessage> = [
      toExecutor({ id: 1, method: 'task/stop', params: { taskId: 'ok' } }),
      toHost({ id: 1, error: { code: -32602, message: 'refused', data: { tag: 'InvalidHostParams' } } }),
      toHost({ method: 'card/dismissed', params: { cardId: 7 } }),
      toHost({ id: 9, method: 'card/show', params: first('CardShowParams') }),
      toExecutor({ id: 9, result: { action: 'maybe' } }),
    ];
    expect(conformanceOf(broken, validate).issues).toEqual([
      { index: 0, direction: 'toExecutor', method: 'task/stop', part: 'params', problem: 'RefusedButValid' },
      { index: 2, direction: 'toHost', method: 'card/dismissed', part: 'params', problem: 'DoesNotValidate' },
      { index: 4, direction: 'toExecutor', method: 'card/show', part: 'result', problem: 'DoesNotValidate' },
    ]);
  });

  it('never throws, whatever is recorded', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ direction: fc.constantFrom('toExecutor' as const, 'toHost' as const), message: fc.anything() }), { maxLength: 12 }), (recording) => {
        const verdict = conformanceOf(recording, validate);
        expect(verdict.checked + verdict.skipped).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
