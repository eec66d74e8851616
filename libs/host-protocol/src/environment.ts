/**
 * `@wework/host-protocol/environment`: the names of the environment variables the host protocol gives
 * a meaning to, without the protocol's codecs, for code that starts processes before it decodes any message.
 *
 * Nothing here does anything: constants only.
 */

/** The name under which the commands of a task's turns see the Wegent runtime token of `runtime/setWegentToken`. */
export const WEGENT_RUNTIME_TOKEN_ENV = 'WEGENT_RUNTIME_AUTH_TOKEN';
