/// <reference types="vite/client" />
import type { D1Migration } from "cloudflare:test";
import type { OptionalSettings } from "../src/platform/env";

declare module "vitest" {
  export interface ProvidedContext {
    fuzzCases: number;
    fuzzSeed: number;
    /** The `jobs` project: each file starts from an empty database and KV (test/helpers/fresh-storage.ts). */
    storagePerFile: boolean;
  }
}

declare global {
  /** Whether test/setup.ts has wrapped this isolate's Function already (files of a project share an isolate). */
  var testRefusesCodeFromStrings: boolean | undefined;
  /** How many files of the `jobs` project's workerd have had their storage emptied (test/helpers/fresh-storage.ts). */
  var testFilesEmptied: number | undefined;
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
