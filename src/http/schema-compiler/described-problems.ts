import type { Problem } from '../../domain/api-error.js';
import { ERROR_LIST_MAX_ENTRIES } from '../../domain/limits.js';

/**
 * The problems found, each once (the same path and text from two keywords is one problem). Only the
 * first ERROR_LIST_MAX_ENTRIES are described, since no answer lists more; the rest are counted, and
 * stand as one summary problem carrying their count (Problem.count), so that the answer's total is
 * right while the work per further error is a count.
 */
export class DescribedProblems {
  private readonly problems: Problem[] = [];
  private readonly seen = new Set<string>();
  private skipped = 0;

  full(): boolean {
    return this.problems.length >= ERROR_LIST_MAX_ENTRIES;
  }

  add(problem: Problem): void {
    const key = `${problem.path}|${problem.text}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.problems.push(problem);
  }

  skip(): void {
    this.skipped += 1;
  }

  list(): Problem[] {
    if (this.skipped === 0) return this.problems;
    return [
      ...this.problems,
      { code: 'FORMAT_ERROR', text: `${this.skipped} more problems of form, not listed`, count: this.skipped },
    ];
  }
}
