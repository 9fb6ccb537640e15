/**
 * The countries of the SEPA schemes' geographical scope, by the IBAN country code their accounts
 * carry: 41 countries since the European Payments Council admitted Serbia in May 2025 (EPC, "EPC
 * list of countries in the SEPA schemes' geographical scope", EPC409-09; as reported at
 * https://europeanwesternbalkans.com/2025/05/23/serbia-becomes-a-part-of-the-single-euro-payments-area-sepa/
 * and https://thepaypers.com/payments/news/andorra-and-vatican-city-enter-sepa).
 * - The 27 EU member states;
 * - Iceland, Liechtenstein and Norway (EEA);
 * - Switzerland, the United Kingdom, Monaco, San Marino, Andorra and Vatican City;
 * - Albania and Montenegro (November 2024), Moldova and North Macedonia (March 2025), Serbia (May 2025);
 * - Gibraltar, which the scope names with the UK and whose accounts have IBANs of their own (GI).
 * Territories inside the scope whose accounts carry their state's IBANs (Guernsey, Jersey and the
 * Isle of Man: GB; the French overseas departments, Saint-Pierre-et-Miquelon and Mayotte: FR; Åland:
 * FI; the Azores, Madeira and the Canaries: PT and ES) need no entry of their own.
 */
// prettier-ignore
export const SEPA_IBAN_COUNTRIES: ReadonlySet<string> = new Set([
  // EU
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU',
  'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
  // EEA
  'IS', 'LI', 'NO',
  // Other members of the scope
  'CH', 'GB', 'MC', 'SM', 'AD', 'VA', 'AL', 'ME', 'MD', 'MK', 'RS',
  // Territory with IBANs of its own
  'GI',
]);

export function isSepaIbanCountry(country: string): boolean {
  return SEPA_IBAN_COUNTRIES.has(country.toUpperCase());
}
