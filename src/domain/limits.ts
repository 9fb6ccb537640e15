/**
 * Every limit of the server, named, with the reason for its value: one file per area under limits/,
 * all of them exported here, the one place the code takes a limit from.
 * Limits that the specification sets are marked "spec"; the others are our choice (docs/decisions.md).
 */
export * from './limits/request-input.js';
export * from './limits/request-bodies.js';
export * from './limits/server.js';
export * from './limits/security.js';
export * from './limits/revocation.js';
export * from './limits/payments.js';
export * from './limits/account-information.js';
export * from './limits/sandbox.js';
export * from './limits/periodic.js';
export * from './limits/retention.js';
export * from './limits/core-handover.js';
export * from './limits/core.js';
export * from './limits/notifications.js';
