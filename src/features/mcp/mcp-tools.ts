/**
 * Which abilities MCP clients see and under which tool names: needed to route a bearer token's
 * calls before the MCP SDK is loaded (mcp-server.ts loads at the first MCP request).
 */
import type { Ability, AbilityRegistry } from '../abilities/index.js';

/** Abilities offered to MCP clients. */
export function publicAbilities(registry: AbilityRegistry): Ability[] {
  return registry.list().filter((ability) => ability.meta.mcp?.public === true);
}

/** `siteward/list-modules` → `siteward-list-modules` (MCP tool names have no `/`). */
export function toolName(ability: Ability): string {
  return ability.name.replace('/', '-');
}
