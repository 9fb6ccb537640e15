import { type Json, withWarnings } from '../../domain/json.js';
import type { AisAccount } from '../../store/ais-records.js';
import type { Banks } from '../banks.js';
import type { AisAccess, AisReading, AisRequest } from './ais-access.js';
import type { AisPending } from './ais-pending.js';
import { accountBalances, accountDetails, accountReference } from './ais-views.js';

/** Payments whose pending debits one balance read takes into account: the expected balance of a busy day. */
const PENDING_FOR_BALANCE = 1000;

/** GET /v1/accounts, /v1/accounts/{id} and /v1/accounts/{id}/balances. */
export class AisAccounts {
  constructor(
    private readonly access: AisAccess,
    private readonly pending: AisPending,
    private readonly banks: Banks,
  ) {}

  async list(request: AisRequest, withBalance: boolean): Promise<Json> {
    const reading = await this.access.open(request);
    await this.access.countRead(reading, 'accounts', reading.consent.id);
    const accounts = await Promise.all(
      reading.accounts.map(async (account) =>
        accountDetails(account, reading.fixes, withBalance ? await this.balances(reading, account) : undefined),
      ),
    );
    return withWarnings({ accounts }, reading.warnings);
  }

  async read(request: AisRequest, accountId: string, withBalance: boolean): Promise<Json> {
    const reading = await this.access.open(request);
    const account = this.access.account(reading, accountId);
    await this.access.countRead(reading, 'account', account.id);
    return withWarnings(
      {
        account: accountDetails(
          account,
          reading.fixes,
          withBalance ? await this.balances(reading, account) : undefined,
        ),
      },
      reading.warnings,
    );
  }

  async readBalances(request: AisRequest, accountId: string): Promise<Json> {
    const reading = await this.access.open(request);
    const account = this.access.account(reading, accountId);
    await this.access.countRead(reading, 'balances', account.id);
    return withWarnings(
      { account: accountReference(account), balances: await this.balances(reading, account) },
      reading.warnings,
    );
  }

  async balances(reading: AisReading, account: AisAccount): Promise<Json[]> {
    const pending = await this.pending.of(
      this.banks.of(reading.request.tpp.id),
      account,
      reading.today,
      PENDING_FOR_BALANCE,
    );
    return accountBalances(account, pending.debitMinor, reading.today);
  }
}

/** An answer with the WARNINGs of x-accept-fix names the bank does not know, when there are any. */
