/// <reference types="vite/client" />
import type { D1Migration } from "cloudflare:test";
import type { OptionalSettings } from "../src/platform/env";

declare module "vitest" {
  export interface ProvidedContext {
    fuzzCases: number;
    fuzzSeed: number;
    /** The files that rewrite the seeded data or leave queued work behind (vitest.config.ts's JOBS): each, and the file after it, starts from an empty database and KV. */
    storageRewritingFiles: string[];
    /** The browser files that wait on the wall clock (vitest.config.ts's CLOCK_WAITING): they start first. */
    clockWaitingFiles: string[];
  }
}

declare global {
  /** Whether test/setup.ts has wrapped this isolate's Function already (files of a project share an isolate). */
  var testRefusesCodeFromStrings: boolean | undefined;
  /** How many times this workerd's storage has been emptied (test/helpers/fresh-storage.ts). */
  var testStoragesEmptied: number | undefined;
  /** Whether the last file in this isolate rewrote the seeded data or left queued work behind (test/setup.ts). */
  var testStorageRewritten: boolean | undefined;
  namespace Cloudflare {
    interface Env extends OptionalSettings {
      TEST_MIGRATIONS: D1Migration[];
      TEST_SEED: string[];
      TEST_CATALOGUES: string[];
      TEST_DEFAULT_THEME: Record<string, string>;
      SHARED_HS_CSV: string;
      SHARED_HS_SECTIONS_CSV: string;
      SHARED_UNITS_CSV: string;
    }
  }
}
