/**
 * The harness side of the forms diagnosis without processes: pairing of MCP
 * exchanges, evidence from (synthetic) reports, and the command's arguments and errors.
 */
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseForms } from '@wework/elicitation-mapper';
import type { ProxyLogEntry } from '../src/index.js';
import { decodeReportInput, evidenceFromReport, pairExchanges, runDiagnoseCommand, type DiagnoseIo, type ReportInput } from '../src/diagnose/index.js';

const entry = (seq: number, direction: 'client-to-server' | 'server-to-client', message: unknown): ProxyLogEntry => ({ seq, at: '2026-01-01T00:00:00.000Z', direction, message });

/** The plugin log of a form Codex declined under "never": tools/call, elicitation/create, decline, tool result. */
const declinedLog: ProxyLogEntry[] = [
  entry(0, 'client-to-server', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deploy', arguments: {}, _meta: { callId: 'call_1' } } }),
  entry(1, 'server-to-client', { jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: { mode: 'form', message: 'Choose a deployment target', requestedSchema: { type: 'object', properties: { target: { type: 'string' } } } } }),
  entry(2, 'client-to-server', { jsonrpc: '2.0', id: 0, result: { action: 'decline' } }),
  entry(3, 'server-to-client', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'elicitation: decline\noutcome: nothing was deployed (the user declined)' }] } }),
];

const toolItem = { type: 'mcpToolCall', id: 'call_1', server: 'forms', tool: 'deploy', status: 'completed', error: null, result: { content: [{ type: 'text', text: 'elicitation: decline' }] } };

const baseReport: ReportInput = {
  scenario: 'synthetic',
  wire: [
    { direction: 'toAppServer', message: { id: 0, method: 'initialize', params: { clientInfo: { name: 'x', version: '1' }, capabilities: { experimentalApi: true, requestAttestation: false } } } },
    { direction: 'toAppServer', message: { id: 1, method: 'thread/start', params: { approvalPolicy: 'never' } } },
    { direction: 'fromAppServer', message: { id: 1, result: { approvalPolicy: 'never' } } },
  ],
  cards: [],
  turns: [{ items: [toolItem] }],
  plugins: { forms: declinedLog },
  config: { features: { tool_call_mcp_elicitation: false }, mcp_servers: { forms: { command: 'node', default_tools_approval_mode: 'approve' } } },
  threadParams: { approvalPolicy: 'never' },
};

describe('pairExchanges', () => {
  it('pairs requests with replies per sender, both ways', () => {
    expect(pairExchanges(declinedLog)).toEqual([
      { sender: 'codex', seq: 0, method: 'tools/call', params: { name: 'deploy', arguments: {}, _meta: { callId: 'call_1' } }, reply: { seq: 3, result: { content: [{ type: 'text', text: 'elicitation: decline\noutcome: nothing was deployed (the user declined)' }] } } },
      { sender: 'plugin', seq: 1, method: 'elicitation/create', params: expect.objectContaining({ message: 'Choose a deployment target' }), reply: { seq: 2, result: { action: 'decline' } } },
    ]);
  });

  it('keeps errors, and leaves unanswered requests open', () => {
    const exchanges = pairExchanges([
      entry(0, 'server-to-client', { jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: {} }),
      entry(1, 'client-to-server', { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad schema' } }),
      entry(2, 'client-to-server', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} }),
      { seq: 3, at: 'x', direction: 'server-to-client', raw: 'not json', error: 'Unexpected token' },
    ]);
    expect(exchanges.map((x) => x.reply)).toEqual([{ seq: 1, error: { code: -32602, message: 'bad schema' } }, null]);
  });
});

describe('evidenceFromReport', () => {
  it('reads the policy from the thread/start answer, the config from the report, and what happened to the form', () => {
    const { evidence, sources } = evidenceFromReport(baseReport);
    expect(sources).toEqual({ approvalPolicy: 'wire', config: 'report' });
    expect(evidence).toEqual({
      approvalPolicy: 'never',
      toolCallMcpElicitation: false,
      elicitationsAutoDeny: null,
      openaiFormAdvertised: false,
      mcpServers: { forms: { defaultToolsApprovalMode: 'approve', tools: {} } },
      toolCalls: [{ server: 'forms', tool: 'deploy', approvalCard: 'none', reachedPlugin: true, error: null }],
      forms: [
        {
          server: 'forms',
          tool: 'deploy',
          message: 'Choose a deployment target',
          mode: 'form',
          sent: true,
          hasProperties: true,
          duringToolCall: true,
          reachedClient: false,
          schemaSupported: null,
          clientAnswer: 'none',
          pluginResult: 'decline',
          pluginError: null,
          toolContinued: true,
        },
      ],
    });
    expect(diagnoseForms(evidence).map((f) => f._tag)).toEqual(['PolicyNeverAutoDeclined']);
  });

  it('matches forms with the cards that reached the client; the executor\'s mapper decides whether they can be shown', () => {
    const form = { type: 'object', properties: { target: { type: 'string', oneOf: [{ const: 'staging', title: 'Staging' }] } } };
    const log = (mode: string): ProxyLogEntry[] => [
      entry(0, 'client-to-server', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deploy' } }),
      entry(1, 'server-to-client', { jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: { mode, message: 'Pick', requestedSchema: form } }),
      entry(2, 'client-to-server', { jsonrpc: '2.0', id: 0, result: { action: mode === 'form' ? 'accept' : 'decline', content: { target: 'staging' } } }),
      entry(3, 'server-to-client', { jsonrpc: '2.0', id: 2, result: { content: [] } }),
    ];
    const card = (mode: string) => ({
      method: 'mcpServer/elicitation/request',
      params: { threadId: 't', turnId: 'u', serverName: 'forms', environmentId: null, mode, _meta: null, message: 'Pick', ...(mode === 'url' ? { url: 'https://example.com', elicitationId: 'e' } : { requestedSchema: form }) },
      response: { action: mode === 'form' ? 'accept' : 'decline', content: null, _meta: null },
    });
    const shown = evidenceFromReport({ ...baseReport, cards: [card('form')], plugins: { forms: log('form') } }).evidence;
    expect(shown.forms).toMatchObject([{ reachedClient: true, schemaSupported: true, clientAnswer: 'accept', pluginResult: 'accept', toolContinued: true }]);
    expect(diagnoseForms(shown)).toEqual([]);
    // A URL-mode request is shown as a url card (https, or http on loopback).
    const url = evidenceFromReport({ ...baseReport, cards: [card('url')], plugins: { forms: log('url') } }).evidence;
    expect(url.forms).toMatchObject([{ mode: 'url', reachedClient: true, schemaSupported: true }]);
    // A mode the mapper does not show is declined: the diagnosis names it.
    const verification = evidenceFromReport({ ...baseReport, cards: [card('openai/userVerification')], plugins: { forms: log('openai/userVerification') } }).evidence;
    expect(verification.forms).toMatchObject([{ mode: 'openai/userVerification', reachedClient: true, schemaSupported: false }]);
    expect(diagnoseForms(verification).map((f) => f._tag)).toEqual(['SchemaUnsupported']);
  });

  it('lets a later turn/start policy override the thread/start answer', () => {
    const wire = [...baseReport.wire, { direction: 'toAppServer' as const, message: { id: 2, method: 'turn/start', params: { threadId: 't', input: [], approvalPolicy: 'on-request' } } }];
    expect(evidenceFromReport({ ...baseReport, wire }).evidence.approvalPolicy).toBe('on-request');
  });

  it('sees a form the plugin SDK refused to send, from the tool output', () => {
    const item = { ...toolItem, result: { content: [{ type: 'text', text: 'elicitation: error "The MCP client does not support openai/form requests."' }] } };
    const { evidence } = evidenceFromReport({ ...baseReport, plugins: { forms: [] }, turns: [{ items: [item] }] });
    expect(evidence.forms).toMatchObject([{ sent: false, mode: 'openai/form', pluginError: { code: null, message: 'The MCP client does not support openai/form requests.' } }]);
    expect(diagnoseForms(evidence).map((f) => f._tag)).toEqual(['OpenaiFormUnsupported']);
  });

  it('never throws on reports with arbitrary messages', () => {
    const message = fc.jsonValue();
    const report: fc.Arbitrary<ReportInput> = fc.record({
      scenario: fc.string(),
      wire: fc.array(fc.record({ direction: fc.constantFrom('toAppServer' as const, 'fromAppServer' as const), message }), { maxLength: 5 }),
      cards: fc.array(fc.record({ method: fc.constantFrom('mcpServer/elicitation/request', 'item/tool/requestUserInput'), params: message, response: message }), { maxLength: 3 }),
      turns: fc.array(fc.record({ items: fc.array(fc.oneof(message, fc.constant(toolItem))) }), { maxLength: 2 }),
      plugins: fc.dictionary(
        fc.constantFrom('forms', 'search'),
        fc.array(fc.record({ seq: fc.nat(), at: fc.constant('t'), direction: fc.constantFrom('client-to-server' as const, 'server-to-client' as const), message }), { maxLength: 4 }),
      ),
      config: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
      threadParams: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: null }),
    });
    fc.assert(
      fc.property(report, (r) => {
        diagnoseForms(evidenceFromReport(r).evidence);
      }),
    );
  });
});

describe('runDiagnoseCommand', () => {
  const memoryIo = (files: Readonly<Record<string, string>>) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: DiagnoseIo = {
      readText: (path) => Promise.resolve(path in files ? E.right(files[path] ?? '') : E.left('ENOENT')),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    };
    return { io, out, err };
  };

  it('prints the findings and exits 1, or prints JSON with --json', async () => {
    const { io, out } = memoryIo({ 'r.json': JSON.stringify(baseReport) });
    expect(await runDiagnoseCommand(['r.json'], io)).toBe(1);
    expect(out[0]).toBe('diagnosis of r.json (scenario "synthetic")');
    expect(out).toContain('✗ PolicyNeverAutoDeclined (forms.deploy)');
    const json = memoryIo({ 'r.json': JSON.stringify(baseReport) });
    expect(await runDiagnoseCommand(['diagnose', 'r.json', '--json'], json.io)).toBe(1);
    const printed = JSON.parse(json.out.join('\n')) as { findings: Array<{ _tag: string; approvalPolicy: string }>; sources: unknown };
    expect(printed.findings.map((f) => [f._tag, f.approvalPolicy])).toEqual([['PolicyNeverAutoDeclined', 'never']]);
    expect(printed.sources).toEqual({ approvalPolicy: 'wire', config: 'report' });
  });

  it('exits 0 when nothing is wrong', async () => {
    const ok = { ...baseReport, plugins: {}, turns: [] };
    expect(await runDiagnoseCommand(['r.json'], memoryIo({ 'r.json': JSON.stringify(ok) }).io)).toBe(0);
  });

  it('exits 2 on bad usage, a missing or invalid file, or a file that is not a report', async () => {
    const cases: ReadonlyArray<[ReadonlyArray<string>, Record<string, string>, RegExp]> = [
      [[], {}, /^diagnose needs a report file\nusage: wework-harness diagnose/],
      [['a.json', 'b.json'], {}, /diagnose takes one report file, got 2/],
      [['r.json', '--scenario'], {}, /Option '--scenario <value>' argument missing/],
      [['r.json', '--jsno'], {}, /Unknown option '--jsno'/],
      [['missing.json'], {}, /cannot read missing\.json: ENOENT$/],
      [['scenarios/x.report.json'], {}, /cannot read scenarios\/x\.report\.json: ENOENT \(a report is written by a run: `wework-harness run scenarios\/x\.json` writes this one\)$/],
      [['r.json'], { 'r.json': '{ nope' }, /r\.json is not valid JSON: line 1, column 3: expected a property name in double quotes or '\}'/],
      [['r.json'], { 'r.json': '{"scenario": 1}' }, /is not a harness report:\n {2}- scenario: expected string/],
      [['r.json', '--scenario', 's.json'], { 'r.json': JSON.stringify(baseReport) }, /cannot read s\.json: ENOENT/],
      [['r.json', '--scenario', 's.json'], { 'r.json': JSON.stringify(baseReport), 's.json': '{"name": "x"}' }, /s\.json: the scenario does not match/],
    ];
    for (const [argv, files, message] of cases) {
      const { io, err } = memoryIo(files);
      expect(await runDiagnoseCommand(argv, io), argv.join(' ')).toBe(2);
      expect(err.join('\n')).toMatch(message);
    }
  });

  it('never throws on arbitrary file content', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v))), async (text) => {
        const code = await runDiagnoseCommand(['r.json'], memoryIo({ 'r.json': text }).io);
        expect([0, 1, 2]).toContain(code);
      }),
      { numRuns: 50 },
    );
  });

  it('decodes reports with paths', () => {
    expect(decodeReportInput({ ...baseReport, wire: [{ direction: 'sideways', message: {} }] })).toMatchObject(E.left({ _tag: 'InvalidReport', issues: ['wire.0.direction: expected "toAppServer" | "fromAppServer"'] }));
  });
});
