import { createApp } from "./app";
import type { Bindings } from "./platform/env";

export { PurchaseFieldsService } from "./reference/purchase-fields";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
