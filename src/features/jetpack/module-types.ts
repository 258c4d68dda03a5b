/** The module contract is the plugin API's (plugins register modules too); jetpack's files import it from here. */
export type * from '../../plugins/module-types.js';
