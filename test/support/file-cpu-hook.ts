import { recordFileCpuOnExit } from './file-cpu.js';

/** Loaded before each test file of a run of scripts/run-tests.ts (its --import): see file-cpu.ts. */
recordFileCpuOnExit();
