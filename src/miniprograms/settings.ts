import { z } from "zod";
import { providerUrl } from "../platform/settings";

/**
 * Group D's settings, read through `settingsOf(env, miniprogramSettings)`. The component secret and
 * the EncodingAESKey are secrets: no log line carries them.
 */
export const miniprogramSettings = z.object({
  /** WeChat's API (unset: the sandbox outside production, api.weixin.qq.com in production). */
  WECHAT_API_BASE: providerUrl.optional(),
  /** The third-party platform's (component's) credentials at WeChat's open platform. */
  WECHAT_COMPONENT_APPID: z
    .string()
    .regex(/^[A-Za-z0-9_]{6,40}$/, { error: "must be the component's app id" })
    .optional(),
  WECHAT_COMPONENT_SECRET: z.string().min(8, { error: "must be the component's app secret" }).optional(),
  WECHAT_MESSAGE_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9]{3,32}$/, { error: "must be 3 to 32 letters and digits, as on the open platform" })
    .optional(),
  WECHAT_ENCODING_AES_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}$/, { error: "must be the 43-character EncodingAESKey" })
    .optional(),
});
