import { z } from "@hono/zod-openapi";
import { createSchemaFactory } from "drizzle-zod";

/**
 * Answers that are a table's own rows: drizzle-zod over the zod that carries `.openapi()`, so a
 * column added is a field documented, and overrides add examples or narrow a column's field.
 */
export const { createSelectSchema } = createSchemaFactory({ zodInstance: z });

/** A row's schema under its name in the document, with a whole row as its example; its fields still typed from the table (drizzle-zod's types know nothing of `.openapi`). */
export const rowAnswer = <S extends z.ZodRawShape>(schema: { shape: S }, name: string, example?: z.input<z.ZodObject<S>>) =>
  z.object(schema.shape).openapi(name, example === undefined ? {} : { example });
