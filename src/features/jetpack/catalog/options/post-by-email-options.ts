/**
 * Post by Email's address. Historically created, regenerated and deleted by remote calls to
 * WordPress.com; Siteward keeps the address as a local option. The address is a random token
 * under the site's host: receiving the mail is left to whatever consumes the option.
 */
import { randomBytes } from 'node:crypto';
import type { ModuleOptionDefinition, OptionWriteContext, OptionWriteOutcome } from '../../module-types.js';
import { loadValue, storeValue } from '../option-io.js';
import { validateEnum } from '../option-validators.js';

const actions = {
  create: 'Create Post by Email address',
  regenerate: 'Regenerate Post by Email address',
  delete: 'Delete Post by Email address',
};

/** A new address: 16 random lower-case letters and digits at `post.<site host>`. */
export function generatePostByEmailAddress(homeUrl: string): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const token = [...randomBytes(16)].map((byte) => alphabet[byte % alphabet.length]).join('');
  let host = 'localhost';
  try {
    host = new URL(homeUrl).hostname || host;
  } catch {
    // An unparsable home URL still gets a usable address.
  }
  return `${token}@post.${host}`;
}

async function writeAddress(action: string, io: OptionWriteContext): Promise<OptionWriteOutcome> {
  if (action === 'delete') {
    const changed = await storeValue(io, undefined);
    return { ok: true, changed, value: '', response: { post_by_email_address: '' } };
  }
  // "create" keeps an existing address; "regenerate" always replaces it.
  const existing = await loadValue(io);
  const address =
    action === 'create' && typeof existing === 'string' && existing !== '' ? existing : generatePostByEmailAddress(io.homeUrl);
  const changed = await storeValue(io, address);
  return { ok: true, changed, value: address, response: { post_by_email_address: address } };
}

export const postByEmailOptions: Record<string, ModuleOptionDefinition> = {
  post_by_email_address: {
    description: 'Email address',
    type: 'string',
    default: '',
    enum: actions,
    validate: validateEnum(Object.keys(actions)),
    sanitize: String,
    write: (value, io) => writeAddress(value as string, io),
  },
};
