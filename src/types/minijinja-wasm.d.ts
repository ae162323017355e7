/** The template engine's WebAssembly, imported as a compiled module (workerd, wrangler's CompiledWasm rule). */
declare module "minijinja-js/dist/web/minijinja_js_bg.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
