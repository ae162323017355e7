import { z } from "@hono/zod-openapi";
import { MAX_PAGE_SIZE } from "../platform/pagination";

const page = (fallback: number) =>
  z.strictObject({
    pageNumber: z
      .number({ error: "pageNumber must be a number" })
      .int({ error: "pageNumber must be a whole number" })
      .min(1, { error: "pageNumber starts at 1" })
      .max(100_000)
      .default(1),
    pageSize: z
      .number({ error: "pageSize must be a number" })
      .int({ error: "pageSize must be a whole number" })
      .min(1, { error: "pageSize must be from 1 to 100" })
      .max(MAX_PAGE_SIZE, { error: "pageSize must be from 1 to 100" })
      .default(fallback),
  });

/** D1 pages of 20, D2 of 15, at most 100 (the interface's defaults). */
export const miniprogramPage = page(20);
export const templatePage = page(15);

/** The interface gives configuration ids as strings; a number is accepted too. */
const configurationId = z
  .union([z.string().regex(/^\d{1,12}$/, { error: "id must be a configuration id (digits)" }), z.number().int().positive()], {
    error: "id is required: the configuration id",
  })
  .transform(String);
const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` });
const url = (field: string) => z.url({ protocol: /^https?$/, error: `${field} must be an http(s) URL` }).max(1000);

export const byId = z.strictObject({ id: configurationId });
export const nameVerify = z.strictObject({ id: configurationId, name: text("name", 30) }).openapi({ example: { id: 12, name: "Harbour Tickets" } });
export const profileUpdate = z
  .strictObject({
    id: configurationId,
    name: text("name", 30),
    icon: url("icon"),
    license: url("license"),
    licenseType: text("licenseType", 40),
    explain: text("explain", 120),
  })
  .openapi({
    example: {
      id: 12,
      name: "Harbour Tickets",
      icon: "https://cdn.example.com/harbour/icon.png",
      license: "https://cdn.example.com/harbour/business-licence.jpg",
      licenseType: "business_license",
      explain: "Tickets and opening hours of the harbour gallery",
    },
  });
export const codeCommit = z
  .strictObject({
    id: configurationId,
    tplId: z.number({ error: "tplId is required: a template id of D2" }).int().positive(),
  })
  .openapi({ example: { id: 12, tplId: 3 } });
export const testerBind = z
  .strictObject({ id: configurationId, messengerId: text("messengerId", 64) })
  .openapi({ example: { id: 12, messengerId: "harbour_tester" } });
export const miniprogramCreate = z
  .strictObject({ name: text("name", 30), configType: text("configType", 40).optional() })
  .openapi({ example: { name: "Harbour Tickets", configType: "ticketing" } });
