export {
  PasswordGuards,
  type GuardRefusal,
  type GuardVerdict,
  type PasswordAttempt,
  type PasswordCheckVia,
  type PasswordGuard,
} from './password-guards.js';
export {
  createAuthenticator,
  parseBasicAuthorization,
  refusalError,
  type AuthenticatorOptions,
  type LoginWithIdentity,
  type SitewardAuthenticator,
} from './authenticator.js';
export { createAppPasswordService, type AppPasswordInfo, type AppPasswordService } from './app-passwords.js';
export { anonymousPrincipal, makePrincipal, mapMetaCapability, type DevModeInput } from './capabilities.js';
export { clearLoginCookieHeader, LOGIN_COOKIE_NAME, loginCookieHeader, readCookie } from './login-cookie.js';
export { createNonceService, NONCE_LIFE_SECONDS, nonceTick, type NonceService } from './nonce.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { isRoleName, ROLE_NAMES, ROLES, type RoleName } from './roles.js';
export { loadSecrets, SecretError, Secrets } from './secrets.js';
export { createSessionManager, type LoginOptions, type LoginResult, type SessionManager, type VerifiedSession } from './sessions.js';
export { checkSetupToken, completeSetup, consumeSetupToken, ensureSetupToken, setupNeeded, SETUP_TOKEN_OPTION } from './setup-token.js';
export { createUserService, type NewUserInput, type UserService } from './user-service.js';
export { authError, type AuthErrorCode } from './errors.js';
export { isEmail, type UserError, type UserErrorCode } from './user-validation.js';
