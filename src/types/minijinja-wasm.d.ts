/**
 * The template engine's WebAssembly with its memory bounded (scripts/build/lib/template-engine.ts writes
 * it under build/), imported as a compiled module (workerd, wrangler's CompiledWasm rule).
 */
declare module "*/template-engine/minijinja_js_bg.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
