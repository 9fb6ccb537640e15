import type { Language } from '../../domain/language.js';

/** The texts of the console's snapshot page (docs/sandbox.md, "Snapshots"), in English and Bokmål. */
export interface SnapshotTexts {
  intro: string;
  saveHeading: string;
  nameLabel: string;
  nameHint: string;
  save: string;
  listHeading: (limit: number) => string;
  none: string;
  noName: string;
  saved: string;
  bankTime: string;
  rows: string;
  size: string;
  restore: string;
  restoreHint: string;
  delete: string;
  badName: (max: number) => string;
}

const en: SnapshotTexts = {
  intro:
    'A snapshot keeps your bank as it is now: its customers, accounts, payments, consents, armed scenarios and clock. Restoring one puts the bank back as it was saved.',
  saveHeading: 'Save a snapshot',
  nameLabel: 'Name (optional)',
  nameHint: 'A label of your own, shown in the list.',
  save: 'Save a snapshot',
  listHeading: (limit) => `Saved snapshots (at most ${limit})`,
  none: 'No snapshots yet.',
  noName: 'Snapshot',
  saved: 'Saved',
  bankTime: 'Bank’s time then',
  rows: 'Rows',
  size: 'Size',
  restore: 'Restore',
  restoreHint:
    'Restoring replaces everything in the bank, and sets its clock back to where it stood; save first to keep what the bank has now.',
  delete: 'Delete',
  badName: (max) => `A name is at most ${max} characters, without line breaks.`,
};

const nb: SnapshotTexts = {
  intro:
    'Et øyeblikksbilde tar vare på banken slik den er nå: kundene, kontoene, betalingene, samtykkene, aktive scenarioer og klokken. Gjenoppretter du ett, blir banken slik den var da det ble lagret.',
  saveHeading: 'Lagre et øyeblikksbilde',
  nameLabel: 'Navn (valgfritt)',
  nameHint: 'Et navn du velger selv, vist i listen.',
  save: 'Lagre et øyeblikksbilde',
  listHeading: (limit) => `Lagrede øyeblikksbilder (høyst ${limit})`,
  none: 'Ingen øyeblikksbilder ennå.',
  noName: 'Øyeblikksbilde',
  saved: 'Lagret',
  bankTime: 'Bankens tid da',
  rows: 'Rader',
  size: 'Størrelse',
  restore: 'Gjenopprett',
  restoreHint:
    'Gjenoppretting erstatter alt i banken, og stiller klokken tilbake dit den stod; lagre først for å beholde det banken har nå.',
  delete: 'Slett',
  badName: (max) => `Et navn er høyst ${max} tegn, uten linjeskift.`,
};

export const SNAPSHOT_TEXTS: Record<Language, SnapshotTexts> = { en, nb };
