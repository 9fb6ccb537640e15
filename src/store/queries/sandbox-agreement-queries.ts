import type { Kysely } from 'kysely';
import type { EngagementRole } from '../../domain/bank.js';
import type { Database } from '../database.js';
import type { NewSandboxAgreement, SandboxAgreement } from '../sandbox-records.js';

/** The sandbox's corporate agreements with the people engaged on their accounts. */

export async function createAgreement(
  db: Kysely<Database>,
  bank: string,
  agreement: NewSandboxAgreement,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('agreements')
      .values({
        bank,
        id: agreement.id,
        owner_customer_id: agreement.ownerCustomerId,
        name: agreement.name,
        tpp_id: agreement.tppId,
        created_at: agreement.createdAt.toISOString(),
      })
      .execute();
    if (agreement.engagements.length > 0) {
      await trx
        .insertInto('engagements')
        .values(
          agreement.engagements.map((e) => ({
            bank,
            agreement_id: agreement.id,
            customer_id: e.customerId,
            account_id: e.accountId,
            roles: JSON.stringify(e.roles),
          })),
        )
        .execute();
    }
  });
}

export async function findAgreement(
  db: Kysely<Database>,
  bank: string,
  id: string,
): Promise<SandboxAgreement | undefined> {
  const row = await db
    .selectFrom('agreements as a')
    .innerJoin('customers as c', 'c.id', 'a.owner_customer_id')
    .select(['a.id', 'a.name', 'a.owner_customer_id', 'a.tpp_id', 'c.customer_number'])
    .where('a.bank', '=', bank)
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const engagements = await db
    .selectFrom('engagements as e')
    .innerJoin('customers as c', 'c.id', 'e.customer_id')
    .innerJoin('accounts as acc', 'acc.id', 'e.account_id')
    .select(['e.customer_id', 'c.customer_number', 'e.account_id', 'acc.iban', 'acc.bban', 'e.roles'])
    .where('e.bank', '=', bank)
    .where('e.agreement_id', '=', id)
    .orderBy('c.customer_number')
    .orderBy('acc.bban')
    .execute();
  return {
    id: row.id,
    ownerCustomerId: row.owner_customer_id,
    ownerCustomerNumber: row.customer_number,
    name: row.name,
    tppId: row.tpp_id ?? undefined,
    engagements: engagements.map((e) => ({
      customerId: e.customer_id,
      customerNumber: e.customer_number,
      accountId: e.account_id,
      iban: e.iban,
      bban: e.bban,
      roles: JSON.parse(e.roles) as EngagementRole[],
    })),
  };
}

export async function deleteAgreement(db: Kysely<Database>, bank: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('agreements').where('bank', '=', bank).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
