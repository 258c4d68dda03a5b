/**
 * Site verification (the `verification-tools` module): the services' `<meta>` tags in the home
 * page's `<head>` and the `services` endpoint, while the module is active (docs/spec/jetpack-v4-reference.md
 * §3.21, §6). The codes are validated by the module options with the same rule (verification-services.ts).
 */
import type { Feature } from '../contract.js';
import { verificationError } from './errors.js';
import { readVerificationCodes, verificationMetaTags, verificationServicesAnswer } from './verification-services.js';
import { JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import { defineRoute } from '../../rest/define-route.js';

// The surface other features use (test/layers.test.ts): the jetpack/v4 module options check codes with it.
export { validateVerificationCode, type VerificationServiceKey } from './verification-services.js';

const MODULE = 'verification-tools';
const CODES_OPTION = 'verification_services_codes';

export const verificationFeature: Feature = {
  name: 'verification',
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const codes = async () => readVerificationCodes(await ctx.store.options.get(CODES_OPTION));

    ctx.addHeadTags(async () => ((await jetpack.isModuleActive(MODULE)) ? verificationMetaTags(await codes()) : []));

    const services = async () => {
      const answer = verificationServicesAnswer(await codes());
      return answer.kind === 'verified' ? answer.body : verificationError('verification_empty');
    };
    ctx.api.registerRoute(
      JETPACK_NAMESPACE,
      '/module/verification-tools/services',
      defineRoute({ permission: jetpack.permission('view_admin'), guards: [jetpack.moduleActive(MODULE)], handler: services }),
    );
    // The same answer under the 4.3+ name (docs/spec/current-clients.md A.6).
    jetpack.registerModuleData(MODULE, jetpack.whenModuleActive(MODULE, services));
  },
};
