import { createApp } from "./app";
import type { Bindings } from "./platform/env";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
