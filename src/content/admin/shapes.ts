import { z } from "@hono/zod-openapi";
import { tenantId } from "./guard";

export const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
export const tenantPath = { params: z.object({ tenantId }) };
export const inTenantPath = <M extends z.ZodRawShape>(more: M) => ({ params: z.object({ tenantId, ...more }) });
export const deleted = { data: z.object({ deleted: z.literal(true) }), answer: "Deleted" };
