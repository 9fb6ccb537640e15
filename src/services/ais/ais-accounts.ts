import type { Json } from '../../domain/json.js';
import type { AisAccess, AisRequest } from './ais-access.js';
import type { AisPending } from './ais-pending.js';
import { ReadTarget } from './ais-read.js';
import { accountDetails, accountPath, accountReference, selfLinks } from './ais-views.js';

/** GET /v1/accounts, /v1/accounts/{id} and /v1/accounts/{id}/balances; every account carries the bank's `bic`. */
export class AisAccounts {
  constructor(
    private readonly access: AisAccess,
    private readonly pending: AisPending,
    private readonly bic: string,
  ) {}

  list(request: AisRequest, withBalance: boolean): Promise<Json> {
    return this.access.read(request, {
      of: ReadTarget.accounts,
      counts: 'accounts',
      withBalance,
      view: async ({ resource: accounts, fixes, today, bank, withBalance: counted }) => ({
        accounts: await Promise.all(
          accounts.map(async (account) =>
            accountDetails(
              account,
              fixes,
              counted ? await this.pending.balances(bank, account, today) : undefined,
              this.bic,
            ),
          ),
        ),
      }),
    });
  }

  read(request: AisRequest, accountId: string, withBalance: boolean): Promise<Json> {
    return this.access.read(request, {
      of: ReadTarget.account(accountId),
      counts: 'account',
      withBalance,
      view: async ({ resource: account, fixes, today, bank, withBalance: counted }) => ({
        account: accountDetails(
          account,
          fixes,
          counted ? await this.pending.balances(bank, account, today) : undefined,
          this.bic,
        ),
      }),
    });
  }

  readBalances(request: AisRequest, accountId: string): Promise<Json> {
    return this.access.read(request, {
      of: ReadTarget.account(accountId),
      counts: 'balances',
      view: async ({ resource: account, today, bank }) => ({
        account: accountReference(account),
        balances: await this.pending.balances(bank, account, today),
        _links: selfLinks(`${accountPath(account.id)}/balances`),
      }),
    });
  }
}
