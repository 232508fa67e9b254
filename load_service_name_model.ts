import type { Logger } from "./domain/shared/logger.ts";
import type { NameModel } from "./model/types.ts";

/**
 * Loads the bundled name model once. When it is missing or corrupt the service still starts
 * and answers with the rule; one clear line says so.
 */
export async function loadServiceNameModel(
  path: string | null,
  logger: Logger,
): Promise<NameModel | null> {
  try {
    const { loadNameModel } = await import("./model/mod.ts");
    const loaded = await loadNameModel(path ? { path } : {});
    if (loaded.model) {
      logger.info("name model loaded", {
        version: loaded.model.version,
        threshold: loaded.model.threshold,
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
