import { readFileSync } from "node:fs";
import { hsRowsFromCsv, unitRowsFromCsv } from "../src/reference/jobs";

const data = (file: string) => readFileSync(new URL(`./data/${file}`, import.meta.url), "utf8");

/**
 * HS 2022 codes from datasets/harmonized-system (ODC-PDDL 1.0, public domain), as the `hs`
 * refresh job reads them, so that O6 answers from the first `npm run dev`.
 */
export const hsSeedRows = () => hsRowsFromCsv(data("harmonized-system.csv"), data("hs-sections.csv"));

/** UN/ECE Recommendation 20 from datasets/unece-units-of-measure (ODC-PDDL 1.0), as the `units` job reads it. */
export function unitSeedRows() {
  const rows = unitRowsFromCsv(data("units-of-measure.csv"));
  return {
    units: rows.map(({ refCode: _ref, ...unit }) => unit),
    /** Each commerce unit linked to the unit it converts to, once both exist. */
    links: rows
      .filter((row) => row.refCode)
      .map(
        (row) =>
          `UPDATE "units" SET "ref_unit" = (SELECT "id" FROM "units" WHERE "code" = '${row.refCode}') WHERE "code" = '${row.code}' AND "ref_unit" IS NULL;`,
      ),
  };
}
