/**
 * A typed TypeScript client for the contact-data service: `createContactDataClient` gives one
 * method per operation; refusals are thrown as `ApiError` with the API's `code`.
 */
export * from "./client.ts";
export type { ApiErrorCode } from "./errors.ts";
export type { components, operations, paths } from "./openapi_types.ts";
