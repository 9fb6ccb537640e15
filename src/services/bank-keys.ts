import type { UpkeepStore } from '../store/upkeep-records.js';
import { ApiError } from '../domain/api-error.js';
import type { CertificateAnchor } from '../domain/certificate-anchor.js';
import { MAX_SANDBOX_BANK_KEYS } from '../domain/limits.js';
import { readPublicKeyInput } from '../security/public-key-input.js';
import type { BoundKey } from '../store/upkeep-records.js';
import type { Banks } from './banks.js';
import type { ValidLink } from './console/console-sessions.js';

/** Why a `tpp docs` link binds nothing a second time, wherever that is found. */
export const LINK_USED = '$.token was used already: a link binds one browser once; ask for another with `tpp docs`';

/** What the key routes answer: the bank's keys, and which signed the request. */
export interface BankKeysView {
  keys: (BoundKey & { current: boolean })[];
  limit: number;
}

/** Who asks to unbind a key: the key it signed with, and which kind of CA issued its certificate. */
export interface KeyHolder {
  keySha256: string;
  anchor: CertificateAnchor;
}

/**
 * The keys of a TPP's sandbox bank (docs/decisions/0270 and docs/decisions/0271). Only a request signed with
 * a key bound already, or with a certificate of a CA the
 * operator trusts, reaches here (the bank hook refuses any other with 403), so a key is added by its
 * bank's owner and by nobody who merely holds a self-service certificate for the identifier.
 */
export class BankKeys {
  constructor(
    private readonly store: UpkeepStore,
    private readonly banks: Banks,
    private readonly limit = MAX_SANDBOX_BANK_KEYS,
  ) {}

  async list(tppId: string, signedWith: string): Promise<BankKeysView> {
    const keys = await this.store.listBankKeys(this.banks.of(tppId));
    return { keys: keys.map((k) => ({ ...k, current: k.keySha256 === signedWith })), limit: this.limit };
  }

  /** Binds the public key to the TPP's bank; whether it was new (201) or bound already (200). */
  async bind(tppId: string, signedWith: string, publicKey: string): Promise<{ created: boolean; view: BankKeysView }> {
    const key = readPublicKeyInput(publicKey, '$.publicKey');
    const bank = this.banks.of(tppId);
    const done = await this.store.bindBankKey(bank, key.keySha256, await this.banks.now(tppId), this.limit);
    if (done === 'full') throw this.full(tppId);
    return { created: done === 'bound', view: await this.list(tppId, signedWith) };
  }

  /**
   * Binds a key a browser made to the bank of the TPP whose `tpp docs` asked for the link (issue 41):
   * once per link, while the key that asked for it is bound. Whether it was new, and to whose bank.
   */
  async bindByLink(
    link: ValidLink,
    key: { keySha256: string },
  ): Promise<{ created: boolean; tppId: string; keySha256: string }> {
    const done = await this.store.bindBankKeyByLink(
      this.banks.of(link.tppId),
      { nonce: link.nonce, expiresAt: link.expiresAt, askedWith: link.keySha256 },
      key.keySha256,
      await this.banks.now(link.tppId),
      this.limit,
    );
    if (done === 'full') throw this.full(link.tppId, ', then ask for another link with `tpp docs`');
    if (done === 'used' || done === 'key-unbound')
      throw ApiError.of([
        {
          code: 'FORBIDDEN',
          path: '$.token',
          text:
            done === 'used'
              ? LINK_USED
              : `$.token was asked for with a key no longer bound to the sandbox bank of ${link.tppId}; ask for another with \`tpp docs\``,
        },
      ]);
    return { created: done === 'bound', tppId: link.tppId, keySha256: key.keySha256 };
  }

  private full(tppId: string, then = ''): ApiError {
    return new ApiError(
      'ACCESS_EXCEEDED',
      `the sandbox bank of ${tppId} has ${this.limit} keys bound, the most it keeps; unbind one first (DELETE /v1/sandbox/keys/{keySha256})${then}`,
    );
  }

  /**
   * Unbinds a key; a bank's last key stays unless a trusted certificate made or used the bank (without
   * a key such a bank would go to whoever comes first; the store decides, under the bank's lock). The
   * key that made the bank (the first bound) goes only by its own request or a trusted certificate's: a
   * second self-service key, bound by the maker, cannot lock the maker out (issue 40), while a trusted
   * certificate proves the identifier and may remove a key someone took the identifier with.
   */
  async unbind(tppId: string, keySha256: string, by: KeyHolder): Promise<void> {
    const bank = this.banks.of(tppId);
    if (
      by.anchor === 'self-service' &&
      keySha256 !== by.keySha256 &&
      keySha256 === makerOf(await this.store.listBankKeys(bank))
    )
      throw new ApiError(
        'FORBIDDEN',
        `${keySha256} is the key that made the sandbox bank of ${tppId}: only a request signed with it, or with a certificate of a CA this sandbox trusts, unbinds it`,
        [
          {
            code: 'FORBIDDEN',
            path: 'path:keySha256',
            text: `${keySha256} is the key that made the sandbox bank of ${tppId}: only a request signed with it, or with a certificate of a CA this sandbox trusts, unbinds it`,
          },
        ],
      );
    const done = await this.store.unbindBankKey(bank, keySha256);
    if (done === 'unknown')
      throw ApiError.of([
        {
          code: 'RESOURCE_UNKNOWN',
          path: 'path:keySha256',
          text: `no key ${keySha256} is bound to the sandbox bank of ${tppId}`,
        },
      ]);
    if (done === 'last')
      throw new ApiError(
        'CONFLICT',
        `${keySha256} is the last key bound to the sandbox bank of ${tppId}, and a bank without a key would be anyone's; bind its successor first`,
      );
    this.banks.forget(bank, keySha256);
  }
}

/** The key that made the bank: the first bound (by time, then by key, so every instance names the same one). */
function makerOf(keys: readonly BoundKey[]): string | undefined {
  return [...keys].sort((a, b) => a.boundAt.localeCompare(b.boundAt) || a.keySha256.localeCompare(b.keySha256))[0]
    ?.keySha256;
}
