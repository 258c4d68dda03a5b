/** The 37 modules Siteward ships (docs/spec/jetpack-v4-reference.md §5.2). */
import type { ModuleDefinition } from '../module-types.js';
import { modulesAToL } from './modules-a-to-l.js';
import { modulesMToR } from './modules-m-to-r.js';
import { modulesSToZ } from './modules-s-to-z.js';

export const BUILTIN_MODULES: readonly ModuleDefinition[] = [...modulesAToL, ...modulesMToR, ...modulesSToZ];
