/** Lets requests waiting behind this one run (a /health probe, a small create) between the steps of reading a large body. */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
