/**
 * fast-check arbitraries for scripts, steps and request bodies.
 */
import fc from 'fast-check';
import type { ModelResponse, Script, Step } from '../src/index.js';
import type { ToolArguments } from '../src/Script.js';

/** JSON objects that survive a JSON round trip unchanged (no -0, no undefined). */
export const jsonObject: fc.Arbitrary<ToolArguments> = fc
  .json({ depthSize: 'small' })
  .map((text) => JSON.parse(text) as unknown)
  .filter((v): v is ToolArguments => typeof v === 'object' && v !== null && !Array.isArray(v));

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);
const callId = fc.option(fc.stringMatching(/^[a-zA-Z0-9_-]{1,20}$/), { nil: undefined });

function withOptional<A extends object>(base: A, optional: Readonly<Record<string, unknown>>): A {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v;
  return out as A;
}

export const step: fc.Arbitrary<Step> = fc.oneof(
  text.map((t): Step => ({ kind: 'say', text: t })),
  text.map((t): Step => ({ kind: 'reasoning', summary: t })),
  fc.record({ server: name, tool: name, args: jsonObject, callId }).map(
    ({ server, tool, args, callId }): Step => withOptional({ kind: 'callTool', server, tool, arguments: args }, { callId }),
  ),
  fc
    .record({ fn: name, args: jsonObject, namespace: fc.option(name, { nil: undefined }), callId })
    .map(({ fn, args, namespace, callId }): Step => withOptional({ kind: 'callFunction', name: fn, arguments: args }, { namespace, callId })),
  fc
    .record({
      cmd: text,
      sandboxPermissions: fc.option(fc.constantFrom('use_default' as const, 'require_escalated' as const), { nil: undefined }),
      justification: fc.option(text, { nil: undefined }),
      workdir: fc.option(text, { nil: undefined }),
      callId,
    })
    .map(({ cmd, ...rest }): Step => withOptional({ kind: 'shell', cmd }, rest)),
  fc.record({ patch: text, callId }).map(({ patch, callId }): Step => withOptional({ kind: 'applyPatch', patch }, { callId })),
);

/** Steps without explicit call ids (so every id is generated and unique). */
export const generatedIdStep: fc.Arbitrary<Step> = step.map((s) => {
  if (!('callId' in s)) return s;
  const { callId: _callId, ...rest } = s;
  return rest as Step;
});

export const modelResponse: fc.Arbitrary<ModelResponse> = fc.oneof(
  { arbitrary: fc.array(step, { maxLength: 5 }).map((steps): ModelResponse => ({ kind: 'steps', steps })), weight: 4 },
  fc.record({ status: fc.integer({ min: 400, max: 599 }), message: text }).map((f): ModelResponse => ({ kind: 'fail', ...f })),
  fc.constant<ModelResponse>({ kind: 'hang' }),
);

export const script: fc.Arbitrary<Script> = fc.array(modelResponse, { maxLength: 6 });
