// Starts Swagger UI on the service's own OpenAPI document; every file of the page is served by the Worker.
globalThis.addEventListener("DOMContentLoaded", () => {
  globalThis.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#docs", deepLinking: true, tryItOutEnabled: false });
});
