import { z } from "zod";
import type { GroupModule } from "../platform/group";
import { providerUrl } from "../platform/settings";
import { ENGINES } from "./engines";
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
  settings: z.object({
    AI_ENGINE: z.enum(ENGINES).optional(),
    AI_TIMEOUT_MS: z.coerce.number().int().positive({ error: "must be a positive number of milliseconds" }).optional(),
    TRANSLATION_PROVIDER: z.enum(["workers-ai", "libretranslate", "openai"]).optional(),
    // A self-hosted LibreTranslate is often on a private network, over http.
    LIBRETRANSLATE_URL: providerUrl.optional(),
    OPENAI_BASE_URL: providerUrl.optional(),
  }),
};
