import type { Authorisation, AuthorisationStep } from '../../store/sca-records.js';
import type { Store } from '../../store/store.js';
import type { Banks } from '../banks.js';
import { type ScaPage, message } from './sca-page.js';
import { hashToken, newToken } from './sca-links.js';
import { failureRedirect } from './tpp-redirect.js';

/** An authorisation at the step a token opened, with the time by its bank's clock. */
export interface AtStep {
  authorisation: Authorisation;
  now: Date;
}

/** Where an authorisation moves next: its stage and status, and what the step learnt (the PSU, the attempts). */
export type NextStep = Omit<AuthorisationStep, 'tokenHash'>;

/**
 * The steps of an authorisation, each opened by a token of its own: the link, then each page's
 * form. A token works once, at its stage and within the link's time (docs/sca.md).
 */
export class AuthorisationSteps {
  constructor(
    private readonly store: Pick<Store, 'findAuthorisation' | 'advanceAuthorisation'>,
    private readonly banks: Banks,
  ) {}

  /** The authorisation of a token at its stage, with the time by its bank's clock (read once per page). */
  async current(token: string, stage: Authorisation['stage']): Promise<AtStep | ScaPage> {
    const authorisation = await this.store.findAuthorisation(hashToken(token));
    if (authorisation === undefined || authorisation.stage !== stage) return message('link-invalid', undefined);
    const now = await this.banks.now(authorisation.tppId);
    if (authorisation.expiresAt.getTime() < now.getTime()) {
      await this.advance(authorisation, token, { stage: 'done', status: 'expired' }, now);
      return message('link-expired', failureRedirect(authorisation, 'link-expired'));
    }
    return { authorisation, now };
  }

  /**
   * Moves the authorisation from the step `token` opened to `next`: the new step's token, or
   * undefined when another request moved it first (the page then says the link is no longer valid).
   */
  async advance(authorisation: Authorisation, token: string, next: NextStep, now: Date): Promise<string | undefined> {
    const step = newToken();
    const moved = await this.store.advanceAuthorisation(
      authorisation.id,
      hashToken(token),
      { tokenHash: hashToken(step), ...next },
      now,
    );
    return moved ? step : undefined;
  }
}
