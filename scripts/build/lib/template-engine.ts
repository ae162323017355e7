import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { ENGINE_MEMORY_BYTES } from "../../../src/content/sites/templates";

const SOURCE = "node_modules/minijinja-js/dist/web/minijinja_js_bg.wasm";
/** Where src/content/sites/templates.ts imports the engine's WebAssembly from. */
const OUT_DIR = "build/template-engine";
const MEMORY_SECTION = 5;

function leb128(value: number): number[] {
  const bytes: number[] = [];
  do {
    const byte = value & 0x7f;
    value >>>= 7;
    bytes.push(value ? byte | 0x80 : byte);
  } while (value);
  return bytes;
}

/** An unsigned LEB128 number of `bytes` at `at`, and where it ends. */
function readLeb128(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return [value, at];
  }
}

/**
 * minijinja's WebAssembly with a maximum written into its memory section: a template that grows
 * without end traps at ENGINE_MEMORY_BYTES, within milliseconds, instead of taking the isolate to
 * 4 GB. Workers cannot compile WebAssembly at run time, so the limit is set here, on the file.
 * Run by the Worker build and by the test config.
 */
export function buildTemplateEngine(): void {
  const wasm = new Uint8Array(readFileSync(SOURCE));
  for (let at = 8; at < wasm.length;) {
    const id = wasm[at]!;
    const [size, start] = readLeb128(wasm, at + 1);
    if (id !== MEMORY_SECTION) {
      at = start + size;
      continue;
    }
    const [count, limits] = readLeb128(wasm, start);
    // One memory, 32-bit, not shared, with a minimum only (flags 0) or already a maximum (flags 1).
    if (count !== 1 || wasm[limits]! > 1) throw new Error(`${SOURCE}: a memory section this script does not know`);
    const [minimum] = readLeb128(wasm, limits + 1);
    const maximum = ENGINE_MEMORY_BYTES / 65536;
    if (minimum > maximum) throw new Error(`${SOURCE}: starts with ${minimum} pages, more than the ${maximum} allowed`);
    const content = [1, 1, ...leb128(minimum), ...leb128(maximum)];
    const bounded = new Uint8Array([...wasm.subarray(0, at), MEMORY_SECTION, ...leb128(content.length), ...content, ...wasm.subarray(start + size)]);
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(`${OUT_DIR}/minijinja_js_bg.wasm`, bounded);
    return;
  }
  throw new Error(`${SOURCE}: no memory section`);
}
