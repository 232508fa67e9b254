import assert from "node:assert/strict";
import { kernelWat } from "./build_kernel.ts";
import { FORWARD_KERNEL_BASE64 } from "./forward_kernel_wasm.ts";

Deno.test("the shipped kernel text is what build_kernel.ts writes, and its bytes are a module", async () => {
  const shipped = await Deno.readTextFile(new URL("./forward_kernel.wat", import.meta.url));
  assert.equal(shipped, kernelWat(), "run: deno run -A --no-lock model/kernel/build_kernel.ts");
  const bin = atob(FORWARD_KERNEL_BASE64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const mod = new WebAssembly.Module(bytes);
  const names = WebAssembly.Module.exports(mod).map((e) => e.name).sort();
  assert.deepEqual(names, ["forward", "layout"]);
});
