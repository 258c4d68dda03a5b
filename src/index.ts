/**
 * Siteward's public package surface: the plugin API types, errors and responses, and the
 * argument helpers (validation, sanitization, dates, avatars) for plugin authors.
 */
export type { SitewardApi, PluginRegister, FieldDefinition, RouteDefinition, Logger, SiteInfo } from './plugins/api.js';
export type {
  ArgDefinition,
  ArgSchema,
  EndpointCallback,
  EndpointDefinition,
  JsonValue,
  PermissionCallback,
  Principal,
  RestRequest,
  RouteOptions,
  ValidateResult,
} from './rest/types.js';
export { RestResponse } from './rest/types.js';
export {
  answers,
  checkedByHandler,
  defineRoute,
  permission,
  PUBLIC,
  type Answers,
  type ArgCallbacks,
  type Guard,
  type NamedPermission,
  type RouteDeclaration,
  type RouteInput,
} from './rest/define-route.js';
/** TypeBox, the schema builder `defineRoute` takes (`Type.Object`, `Type.Integer`, …), and its `Static` type. */
export { Type, type Static } from '@sinclair/typebox';
export { RestError, restError, isRestError, invalidParams, missingParams, type RestErrorData } from './rest/errors.js';
export type { SitewardEvents, EventName } from './core/events.js';
export type { ModuleDefinition, ModuleOptionDefinition } from './features/jetpack/module-types.js';
export * from './rest/args/index.js';
export { createApp, type App, type CreateAppOptions } from './compose.js';
export type { Feature, FeatureContext, PageDefinition, PageRequest, PageResponse, CliCommand } from './features/contract.js';
export type { BackgroundJob } from './jobs/job-runner.js';
export { loadConfig, ConfigError, type Config } from './settings.js';
