import type { Bindings } from "./platform/env";
import type worker from "./worker";

export { PurchaseFieldsService } from "./reference/purchase-fields-service";

/**
 * The Worker's entry holds no code of the service. A new isolate evaluates only this module, and
 * the service (Hono, zod, Drizzle, every group's routes) loads with the isolate's first event:
 * zod alone takes longer to evaluate than the startup budget of docs/benchmarks.md.
 */
type Service = typeof worker;

let loading: Promise<Service> | undefined;

function service(): Promise<Service> {
  loading ??= import("./worker").then(
    (module) => module.default,
    (error: unknown) => {
      // A failed load is not kept: the next event tries again rather than failing for the isolate's life.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export default {
  fetch: async (...event: Parameters<Service["fetch"]>) => (await service()).fetch(...event),
  scheduled: async (...event: Parameters<Service["scheduled"]>) => (await service()).scheduled(...event),
  queue: async (...event: Parameters<Service["queue"]>) => (await service()).queue(...event),
} satisfies ExportedHandler<Bindings>;
