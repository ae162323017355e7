import { createRoute, z } from "@hono/zod-openapi";
import { parseBizContent } from "../platform/biz-content";
import { database } from "../platform/database";
import { dataEnvelope } from "../platform/envelope";
import { bizContentBody, createRouter, DATA_SECURITY, dataErrorResponses, dataResponse } from "../platform/openapi";
import { countryListParams, countrySchema } from "./schema";
import { listCountries } from "./service";

export const REFERENCE_BASE_PATH = "/std/open";

const common = { tags: ["O · Open reference data"], security: DATA_SECURITY };
const countryListResponses = {
  ...dataResponse(z.array(countrySchema), "Every ISO 3166-1 country"),
  ...dataErrorResponses(400, 401, 403),
};

const routes = {
  countryListGet: createRoute({
    ...common,
    method: "get",
    path: "/country/list",
    summary: "O1 · All countries (GET)",
    responses: countryListResponses,
  }),
  countryListPost: createRoute({
    ...common,
    method: "post",
    path: "/country/list",
    summary: "O1 · All countries (style F, bizContent `{}`)",
    request: { body: bizContentBody(countryListParams) },
    responses: countryListResponses,
  }),
};

export function referenceRoutes() {
  const router = createRouter();
  router.openapi(routes.countryListGet, async (c) => c.json(dataEnvelope(await listCountries(database(c.env))), 200));
  router.openapi(routes.countryListPost, async (c) => {
    await parseBizContent(c, countryListParams);
    return c.json(dataEnvelope(await listCountries(database(c.env))), 200);
  });
  return router;
}
