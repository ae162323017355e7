import { z } from "@hono/zod-openapi";
import { createSchemaFactory } from "drizzle-zod";
import { tenantId } from "./guard";

// Response shapes are the tables' own (drizzle-zod), so a column added is a field documented.
export const { createSelectSchema } = createSchemaFactory({ zodInstance: z });
export const fromTable = (schema: { shape: z.ZodRawShape }, name: string) => z.object(schema.shape).openapi(name);

export const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
export const tenantPath = { params: z.object({ tenantId }) };
export const inTenantPath = <M extends z.ZodRawShape>(more: M) => ({ params: z.object({ tenantId, ...more }) });
export const deleted = { data: z.object({ deleted: z.literal(true) }), answer: "Deleted" };
