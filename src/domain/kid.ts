/**
 * KID (kundeidentifikasjon), the Norwegian OCR payment reference: 2 to 25 digits whose last digit
 * checks the others by MOD10 (Luhn) or MOD11. The creditor's agreement with its bank decides which;
 * the payer's bank cannot know, so a KID is valid when either check holds.
 */
const KID = /^\d{1,24}[\d-]$/;

export function isValidKid(reference: string): boolean {
  if (reference.length < 2 || reference.length > 25 || !KID.test(reference)) return false;
  const body = reference.slice(0, -1);
  const check = reference.slice(-1);
  return mod10CheckDigit(body) === check || mod11CheckDigit(body) === check;
}

/** Luhn: from the right, every second digit doubled (starting with the one next to the check digit). */
export function mod10CheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Weights 2, 3, 4, 5, 6, 7 repeating from the right; 11 - remainder, where 11 is 0 and 10 is '-'. */
export function mod11CheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (2 + (i % 6));
  const check = 11 - (sum % 11);
  return check === 11 ? '0' : check === 10 ? '-' : String(check);
}
