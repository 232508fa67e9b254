import type { Logger } from "../domain/shared/logger.ts";
import type { NameModel } from "../model/types.ts";

/**
 * Loads the bundled name model once. When it is missing or corrupt the service still starts
 * and answers with the rule; one clear line says so.
 */
export async function loadServiceNameModel(
  path: string | null,
  logger: Logger,
): Promise<NameModel | null> {
  try {
    const { loadNameModel } = await import("../model/mod.ts");
    const loaded = await loadNameModel(path ? { path } : {});
    if (loaded.model) {
      logger.info("name model loaded", {
        version: loaded.model.version,
        threshold: loaded.model.threshold,
        runtime: describeRuntime((loaded.model as { runtime?: unknown }).runtime),
      });
      return loaded.model;
    }
    logger.warn("name model unavailable; names are answered by the rule", {
      reason: loaded.reason,
    });
  } catch (error) {
    logger.warn("name model unavailable; names are answered by the rule", {
      reason: (error as Error).message,
    });
  }
  return null;
}

/**
 * Which engine runs the model, for the start log: the WebAssembly forward kernel in the process
 * (the default; no npm runtime is installed for it), or an ONNX runtime where the kernel cannot
 * serve the file: onnxruntime-node (a native addon) or onnxruntime-web (WebAssembly). The ONNX
 * runtimes are in deno.dev.json only, so `deno task start` neither downloads nor loads them.
 */
function describeRuntime(runtime: unknown): string {
  switch (runtime) {
    case "kernel":
      return "kernel (WebAssembly, in process)";
    case "node":
      return "onnxruntime-node (native)";
    case "web":
      return "onnxruntime-web (WebAssembly)";
    default:
      return String(runtime ?? "unknown");
  }
}
