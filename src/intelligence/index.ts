import type { GroupModule } from "../platform/group";
import { intelligenceSettings } from "./engines";
import { INTELLIGENCE_BASE_PATH, intelligenceRoutes } from "./routes";

const base = INTELLIGENCE_BASE_PATH;

/** I · Intelligence utilities: style F text, QR and document tools on embedded engines or Workers AI. */
export const intelligence: GroupModule = {
  name: "intelligence",
  title: "I intelligence utilities",
  surfaces: [{ prefix: base, envelope: "ai" }],
  scopes: ["ai"],
  access: [
    { prefix: `${base}/translate/document`, credential: "data-key", resource: "ai", readOnly: true, hourly: "ai-translate" },
    { prefix: `${base}/qrcode`, credential: "data-key", resource: "ai", readOnly: true, hourly: "ai-qrcode" },
    { prefix: base, credential: "data-key", resource: "ai", readOnly: true, hourly: "ai" },
  ],
  hourlyLimits: { ai: 10_000, "ai-translate": 50, "ai-qrcode": 500 },
  // A 10 MB document in base64 inside bizContent.
  bodyLimits: { [`${base}/translate/document`]: 15 * 1024 * 1024 },
  mount: base,
  router: intelligenceRoutes,
  settings: intelligenceSettings,
};
