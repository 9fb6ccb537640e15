/**
 * Which core the bank's accounts and payments are in (docs/core.md): the embedded ledger, or the
 * bank's own core over HTTP with the shared key that signs the calls both ways. The configuration
 * reads it (config/core-settings.ts); openCore makes the core it names.
 */
export type CoreSetting =
  { kind: 'embedded' } | { kind: 'http'; url: string; keyFile: string; timeoutMs: number; pollSeconds: number };
