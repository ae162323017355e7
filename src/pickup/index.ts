import type { GroupModule } from "../platform/group";
import { authenticateAppToken } from "./app-token";
import { consumePickups } from "./consumer";
import { sweepPickupOutbox } from "./outbox";
import { PICKUP_BASE_PATH, pickupRoutes } from "./routes";
import { pickupSettings } from "./settings";
import { pickupWebhooks } from "./webhooks";

/** P · Pickup tasks: submissions by app token, carrier calls and webhooks through queues. */
export const pickup: GroupModule = {
  name: "pickup",
  title: "P pickup tasks",
  surfaces: [{ prefix: PICKUP_BASE_PATH, envelope: "data" }],
  scopes: ["pickup"],
  access: [{ prefix: PICKUP_BASE_PATH, credential: "app-token", resource: "pickup" }],
  credentials: { "app-token": authenticateAppToken },
  securitySchemes: {
    PickupAppToken: {
      type: "apiKey",
      in: "header",
      name: "Authorization",
      description: "Group P's app token, sent as `Authorization: appToken <app token>`; POST /api/apps makes one",
    },
  },
  mount: PICKUP_BASE_PATH,
  router: pickupRoutes,
  consumers: [{ queue: "gateway-pickups", consume: consumePickups }],
  webhookSenders: [pickupWebhooks],
  tasks: [{ name: "pickup-outbox", cron: "*/5 * * * *", run: sweepPickupOutbox }],
  settings: pickupSettings,
};
