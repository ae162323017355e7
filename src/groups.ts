import { accounts } from "./accounts";
import { content } from "./content";
import { intelligence } from "./intelligence";
import { miniprograms } from "./miniprograms";
import { pickup } from "./pickup";
import type { Surface } from "./platform/group";
import { reference } from "./reference";
import { scheduler } from "./scheduler";
import { service } from "./service";
import { tax } from "./tax";

/**
 * The service, group by group. Adding a group is writing its folder with an `index.ts` that
 * exports a `GroupModule`, and one line here (docs/adding-a-group.md).
 */
const API_GROUPS = [accounts, tax, intelligence, reference, pickup, content, miniprograms];

export const JOBS = API_GROUPS.flatMap((group) => group.jobs ?? []);

export const GROUPS = [service, ...API_GROUPS, scheduler(JOBS)];

/**
 * Paths under a mount that no group claims answer 404 in the envelope of their neighbours; the
 * content and mini-program paths answer in the tenant envelope of DECISIONS.md already.
 */
export const FALLBACK_SURFACES: Surface[] = [
  { prefix: "/std", envelope: "data" },
  { prefix: "/deposits", envelope: "tenant" },
];
