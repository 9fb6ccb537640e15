/**
 * How a PSU proves who they are on the SCA page. The sandbox's provider takes the customer's
 * customerNumber and a one-time code with two documented codes; a production bank plugs in its
 * identity provider (BankID) behind the same interface.
 */
export interface PsuIdentityProvider {
  /** Whether the one-time code proves the customer's identity. */
  verifyCode(customerNumber: string, code: string): boolean;
  /** Codes to show a developer on the page; none in production. */
  readonly hint: { valid: string; invalid: string } | undefined;
}

/** docs/sca.md: 123456 always works, 000000 always fails (as does every other code). */
export const SANDBOX_CODES = { valid: '123456', invalid: '000000' } as const;

export const sandboxIdentityProvider: PsuIdentityProvider = {
  verifyCode: (_customerNumber, code) => code === SANDBOX_CODES.valid,
  hint: SANDBOX_CODES,
};

/**
 * Production has no sandbox codes: until the bank connects its identity provider, no PSU can log
 * in, and the page says so rather than accepting a code anyone could read in the documentation.
 */
export const noIdentityProvider: PsuIdentityProvider = {
  verifyCode: () => false,
  hint: undefined,
};
