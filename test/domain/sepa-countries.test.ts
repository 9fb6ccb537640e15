import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countrySpecs } from 'ibantools';
import { SEPA_IBAN_COUNTRIES, isSepaIbanCountry } from '../../src/domain/sepa-countries.js';

describe('the SEPA schemes’ countries', () => {
  it('holds the 41 countries of the scope and Gibraltar, each a country with IBANs', () => {
    assert.equal(SEPA_IBAN_COUNTRIES.size, 42);
    for (const country of SEPA_IBAN_COUNTRIES) assert.ok(countrySpecs[country]?.chars, `${country} has IBANs`);
  });

  it('takes Norway, the euro area, the UK, Switzerland and the 2024–2025 members; not Turkey or the US', () => {
    for (const country of ['NO', 'DE', 'FR', 'GB', 'CH', 'AD', 'VA', 'AL', 'ME', 'MD', 'MK', 'RS', 'no'])
      assert.ok(isSepaIbanCountry(country), country);
    for (const country of ['TR', 'US', 'BR', 'UA']) assert.equal(isSepaIbanCountry(country), false, country);
  });
});
