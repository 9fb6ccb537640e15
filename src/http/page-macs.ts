import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NationalIdKey } from '../domain/psu.js';

/**
 * The MACs of the HTML pages (the SCA pages' step binding, the console's links and sessions). Their
 * keys are derived from the installation's key for national identity numbers, which every instance
 * shares already, so a page or link made by one instance is taken by any other; each purpose has a
 * label of its own, so that one purpose's MAC is never another's.
 */

/** The key of one purpose, named by its label. */
export function derivedKey(installationKey: NationalIdKey, label: string): Buffer {
  return createHmac('sha256', installationKey.bytes).update(label).digest();
}

/** HMAC-SHA256 of the text, base64url. */
export function macOf(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

/** Whether `sent` is the text's MAC, compared in constant time. */
export function macMatches(key: Buffer, text: string, sent: string): boolean {
  const given = Buffer.from(sent);
  const expected = Buffer.from(macOf(key, text));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
