/**
 * The granular approval policy and how a policy treats plugin forms: one home in
 * `@wework/elicitation-mapper` (the forms diagnosis reads it there), re-exported here.
 */
export { describeApprovalPolicy, forwardsElicitations, isGranularPolicy, weworkGranularApprovalPolicy, type GranularApprovalPolicy } from '@wework/elicitation-mapper';
