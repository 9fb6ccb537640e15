/** Languages of messages meant for people (psuMessage, the SCA pages): English and Norwegian Bokmål. */
export type Language = 'en' | 'nb';

export const DEFAULT_LANGUAGE: Language = 'en';
