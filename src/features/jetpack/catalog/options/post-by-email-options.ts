/**
 * Post by Email's address. Historically created, regenerated and deleted by remote calls to
 * WordPress.com, whose mail servers then turned mail into posts. Siteward receives no mail, so
 * every action answers 400 `feature_not_available` (docs/spec/compat.md §9: never a silent success); the
 * option is still listed with its reference shape so clients that read it keep working.
 */
import type { ModuleOptionDefinition } from '../../module-types.js';
import { validateEnum } from '../option-validators.js';

const actions = {
  create: 'Create Post by Email address',
  regenerate: 'Regenerate Post by Email address',
  delete: 'Delete Post by Email address',
};

export const postByEmailOptions: Record<string, ModuleOptionDefinition> = {
  post_by_email_address: {
    description: 'Email address',
    type: 'string',
    default: '',
    enum: actions,
    validate: validateEnum(Object.keys(actions)),
    sanitize: String,
    notAvailable: true,
  },
};
