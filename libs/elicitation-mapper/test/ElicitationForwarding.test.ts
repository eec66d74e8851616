import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecs } from '@wework/codex-protocol';
import { arbitraryOf } from '@wework/codex-protocol/testing';
import { describeApprovalPolicy, forwardsElicitations, isGranularPolicy, weworkGranularApprovalPolicy } from '../src/index.js';

/** Any `AskForApproval` this version knows, as we send it. */
const approvalPolicyArbitrary = arbitraryOf(codecs.AskForApprovalStrict);

describe('weworkGranularApprovalPolicy', () => {
  it('is the spec shape: only mcp_elicitations enabled', () => {
    expect(weworkGranularApprovalPolicy).toEqual({
      granular: { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true },
    });
  });

  it('is a valid AskForApproval for the protocol codec, and frozen', () => {
    expect(E.isRight(codecs.AskForApproval.decode(weworkGranularApprovalPolicy))).toBe(true);
    expect(Object.isFrozen(weworkGranularApprovalPolicy)).toBe(true);
    expect(Object.isFrozen(weworkGranularApprovalPolicy.granular)).toBe(true);
  });
});

describe('forwardsElicitations', () => {
  it('follows what Codex 0.171.0 does with plugin forms', () => {
    expect(forwardsElicitations('never')).toBe(false);
    expect(forwardsElicitations('on-request')).toBe(true);
    expect(forwardsElicitations('untrusted')).toBe(true);
    expect(forwardsElicitations(weworkGranularApprovalPolicy)).toBe(true);
    expect(forwardsElicitations({ granular: { ...weworkGranularApprovalPolicy.granular, mcp_elicitations: false } })).toBe(false);
  });

  it('depends only on "never" and the granular mcp_elicitations flag', () => {
    fc.assert(
      fc.property(approvalPolicyArbitrary, (policy) => {
        const expected = isGranularPolicy(policy) ? policy.granular.mcp_elicitations : policy !== 'never';
        expect(forwardsElicitations(policy)).toBe(expected);
      }),
    );
  });
});

describe('describeApprovalPolicy', () => {
  it('names the policy, with every granular flag', () => {
    expect(describeApprovalPolicy('never')).toBe('"never"');
    expect(describeApprovalPolicy(weworkGranularApprovalPolicy)).toBe(
      'granular{sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true}',
    );
  });
});
