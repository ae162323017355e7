import type { GroupModule } from "../platform/group";
import type { JobDefinition } from "../platform/jobs/runner";
import { SCHEDULER_BASE_PATH, schedulerRoutes } from "./routes";

/** The scheduler status monitor: the refresh jobs of the other groups, their runs, a manual run. */
export function scheduler(jobs: JobDefinition[]): GroupModule {
  return {
    name: "scheduler",
    title: "the scheduler status monitor",
    surfaces: [{ prefix: SCHEDULER_BASE_PATH, envelope: "data" }],
    scopes: ["scheduler"],
    // Admins only, and of an admin's keys only those granted scheduler:read (status) or :write (run).
    access: [{ prefix: SCHEDULER_BASE_PATH, credential: "data-key", resource: "scheduler", adminOnly: true }],
    mount: SCHEDULER_BASE_PATH,
    router: () => schedulerRoutes(jobs),
  };
}
