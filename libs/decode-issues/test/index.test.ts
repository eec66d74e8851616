import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public API of @wework/decode-issues', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(['describeErrors', 'describeIssue', 'describeKind', 'expectedTypeName', 'formatDecodeIssues', 'formatJsonSyntaxError', 'isRecord', 'issuePath', 'lineAndColumn', 'listIssues', 'locateJsonSyntaxError', 'parseJsonText', 'strictRecord'].sort());
  });
});
