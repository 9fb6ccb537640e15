/** What one run of a slot did: the payments it executed, executed in part, and rejected. */
export interface BatchRunResult {
  slot: string;
  executed: number;
  partial: number;
  rejected: number;
}
