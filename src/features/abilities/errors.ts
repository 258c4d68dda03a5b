/**
 * The Abilities API's errors, as WordPress's controllers and WP_Ability answer them
 * (docs/spec/abilities-mcp.md A.2; where the sheet and the run controller differ, the
 * controller's code: a refused permission callback is `rest_ability_cannot_execute`).
 */
import { errorCatalogue } from '../../rest/errors.js';

export const abilityError = errorCatalogue({
  not_found: { code: 'rest_ability_not_found', message: 'Ability not found.', status: 404 },
  category_not_found: { code: 'rest_ability_category_not_found', message: 'Ability category not found.', status: 404 },
  method_get: { code: 'rest_ability_invalid_method', message: 'Read-only abilities require GET method.', status: 405 },
  method_delete: {
    code: 'rest_ability_invalid_method',
    message: 'Abilities that perform destructive actions require DELETE method.',
    status: 405,
  },
  method_post: { code: 'rest_ability_invalid_method', message: 'Abilities that perform updates require POST method.', status: 405 },
  invalid_input: { code: 'ability_invalid_input', message: 'Ability "{name}" has invalid input. Reason: {reason}', status: 400 },
  missing_input_schema: {
    code: 'ability_missing_input_schema',
    message: 'Ability "{name}" does not define an input schema required to validate the provided input.',
    status: 400,
  },
  /** The REST permission check's refusal (401 anonymous, 403 logged in). */
  cannot_execute: { code: 'rest_ability_cannot_execute', message: 'Sorry, you are not allowed to execute this ability.', status: 403 },
  /** WP_Ability::execute()'s refusal (the MCP adapter's door, and a REST run whose permission changed meanwhile). */
  invalid_permissions: {
    code: 'ability_invalid_permissions',
    message: 'Ability "{name}" does not have necessary permission.',
    status: 403,
  },
  /** The result does not match `output_schema`: the ability's fault, not the caller's. */
  invalid_output: { code: 'ability_invalid_output', message: 'Ability "{name}" has invalid output. Reason: {reason}', status: 500 },
});
