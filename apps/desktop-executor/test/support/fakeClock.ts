/**
 * A clock and one timer that only move when the test says so: the manual clock of `@wework/ports/testing`.
 */
export { manualClock as fakeClock, type ManualClock as FakeClock } from '@wework/ports/testing';
