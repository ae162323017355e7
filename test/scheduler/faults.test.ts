import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JOBS } from "../../src/groups";
import { runJob } from "../../src/platform/jobs/runner";
import { database } from "../../src/platform/database";
import { forEachFault } from "../helpers/faults";
import { EU_VAT_URL, euVatFeedFromDatabase, serveFeeds, yesterday } from "../helpers/feeds";

afterEach(() => vi.restoreAllMocks());

const euVat = JOBS.find((job) => job.name === "eu-vat")!;
const lastRun = () =>
  env.DB.prepare("SELECT status, error FROM job_runs WHERE job = 'eu-vat' ORDER BY id DESC LIMIT 1").first<{
    status: string;
    error: string | null;
  }>();

describe("a refresh job while D1 fails", () => {
  it("applies a feed's changes all or nothing, records how the run ended, and the next run applies them once", async () => {
    // Each run changes another country's rate: a period once recorded is not rewritten by a later feed.
    let run = 0;
    const failed = await forEachFault(
      async (faults) => {
        const before = await euVatFeedFromDatabase();
        const served = structuredClone(before);
        const country = Object.keys(before.items).sort()[run++]!;
        served.items[country] = [{ effective_from: yesterday(), rates: { ...served.items[country]![0]!.rates, standard: 30 } }];
        serveFeeds({ [EU_VAT_URL]: JSON.stringify(served) });

        const outcome = await runJob(database(faults.env), faults.env, euVat, "cron").catch(() => undefined);
        const now = await euVatFeedFromDatabase();
        // All or nothing: the old rates, or the new ones.
        expect([before, served]).toContainEqual(now);
        // A run that started is never left "running", and says nothing of the query it failed on.
        const recorded = await lastRun();
        if (outcome) expect(recorded?.status).not.toBe("running");
        expect(recorded?.error ?? "").not.toMatch(/params|Failed query/);

        if (outcome?.status !== "succeeded") expect((await runJob(database(env), env, euVat, "cron")).status).toBe("succeeded");
        expect(await euVatFeedFromDatabase()).toEqual(served);
      },
      ["DB"],
    );
    expect(failed.some((call) => call.startsWith("DB batch"))).toBe(true);
  });
});
