import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import type { Json } from '../../domain/json.js';
import type { Problem } from '../../domain/api-error.js';
import { ENGAGEMENT_ROLES, type EngagementRole, newBankId } from '../../domain/bank.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import type { SandboxAgreement } from '../../store/sandbox-records.js';
import type { Banks } from '../banks.js';
import { asObject, reject, unknown } from './sandbox-input.js';
import { link } from './sandbox-links.js';
import type { SandboxLookup } from './sandbox-lookup.js';

/** Corporate agreements: a company's people engaged on its accounts with roles. */
export class SandboxAgreements {
  constructor(
    private readonly store: SandboxDataStore,
    private readonly banks: Banks,
    private readonly lookup: SandboxLookup,
  ) {}

  async createAgreement(tpp: TppIdentity, body: unknown, schemaProblems: Problem[]): Promise<Json> {
    const b = asObject(body);
    const problems: Problem[] = [];
    const owner = await this.lookup.namedCustomer(tpp, b.owner, '$.owner', problems);
    if (owner !== undefined && owner.type !== 'CORPORATE') {
      problems.push({
        code: 'FORMAT_ERROR',
        path: '$.owner',
        text: `$.owner: customer ${owner.customerNumber} is a private customer; the owner of an agreement is a corporate customer`,
      });
    }
    const engagements: { customerId: string; accountId: string; roles: EngagementRole[] }[] = [];
    const seen = new Map<string, number>();
    const entries = Array.isArray(b.engagements) ? b.engagements : [];
    for (const [index, entry] of entries.entries()) {
      const path = `$.engagements[${index}]`;
      const e = asObject(entry);
      const person = await this.lookup.namedCustomer(tpp, e.customer, `${path}.customer`, problems);
      if (person !== undefined && person.type !== 'PRIVATE') {
        problems.push({
          code: 'FORMAT_ERROR',
          path: `${path}.customer`,
          text: `${path}.customer: customer ${person.customerNumber} is a corporate customer; the people engaged on an agreement are private customers`,
        });
      }
      const account = await this.lookup.engagedAccount(tpp, asObject(e.account), `${path}.account`, owner, problems);
      const roles =
        Array.isArray(e.roles) &&
        e.roles.length > 0 &&
        e.roles.every((role) => (ENGAGEMENT_ROLES as readonly unknown[]).includes(role))
          ? (e.roles as EngagementRole[])
          : undefined;
      if (person === undefined || account === undefined || roles === undefined) continue;
      const key = `${person.id}|${account.id}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        problems.push({
          code: 'FORMAT_ERROR',
          path,
          text: `${path} repeats the engagement of customer ${person.customerNumber} on account ${account.bban} ($.engagements[${earlier}]); give each person's roles on an account once`,
        });
        continue;
      }
      seen.set(key, index);
      engagements.push({ customerId: person.id, accountId: account.id, roles });
    }
    reject(schemaProblems, problems);
    const id = newBankId();
    await this.store.createSandboxAgreement(this.banks.of(tpp.id), {
      id,
      ownerCustomerId: owner!.id,
      name: b.name as string,
      tppId: tpp.id,
      createdAt: await this.banks.now(tpp.id),
      engagements,
    });
    return agreementView((await this.store.findSandboxAgreement(this.banks.of(tpp.id), id))!);
  }

  async readAgreement(tpp: TppIdentity, agreementId: string): Promise<Json> {
    return agreementView(await this.lookup.visibleAgreement(tpp, agreementId));
  }

  async deleteAgreement(tpp: TppIdentity, agreementId: string): Promise<void> {
    if (!(await this.store.deleteSandboxAgreement(this.banks.of(tpp.id), agreementId)))
      throw unknown('agreementId', 'agreement', agreementId);
  }
}

function agreementView(agreement: SandboxAgreement): Json {
  return {
    id: agreement.id,
    owner: agreement.ownerCustomerNumber,
    name: agreement.name,
    engagements: agreement.engagements.map((e) => ({
      customer: e.customerNumber,
      account: { iban: e.iban, bban: e.bban },
      roles: e.roles,
    })),
    _links: { self: link(`/v1/sandbox/agreements/${encodeURIComponent(agreement.id)}`, 'GET', 'DELETE') },
  };
}
