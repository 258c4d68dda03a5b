/**
 * Shapes of the `jetpack/v4` answers and of `Initial_State` as they travel (docs/spec/jetpack-v4-reference.md
 * §3, §5.1, §6, §11). Types only: the server builds its answers with them and the admin page reads them,
 * so the two cannot drift apart. Nothing here may hold code (test/layers.test.ts checks).
 */

/** A JSON value as it travels. */
export type WireJson = string | number | boolean | null | WireJson[] | { [key: string]: WireJson };

/*
 * Object shapes are type aliases, not interfaces: an alias is assignable to `Record<string, unknown>`
 * (the server's field hooks take records that way), an interface is not.
 */

/** One option of a module record (§6): the definition without its callbacks, plus `current_value`. */
export type ModuleOption = {
  description: string;
  type: 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object';
  default: WireJson;
  /** value → label. */
  enum?: Record<string, string>;
  sanitize_callback?: string;
  current_value: WireJson;
};

/** The 14 header fields every module record starts with, in the reference's order (§5.1). */
export type ModuleHeader = {
  name: string;
  description: string;
  jumpstart_desc: string;
  sort: number;
  recommendation_order: number;
  introduced: string;
  changed: string;
  deactivate: boolean;
  free: boolean;
  requires_connection: boolean;
  auto_activate: 'Yes' | 'No' | 'Public';
  module_tags: string[];
  feature: string[];
  additional_search_queries: string;
};

/** `siteward` when Siteward runs the feature itself, `site` when it only keeps settings for the site's front end. */
export type ModuleRuntime = 'siteward' | 'site';

/**
 * Why a module is unavailable (`available: false`), Siteward's own field (docs/spec/compat.md §9):
 * `not_connected` and `dev_mode` for modules that need the connection, `not_configured` for a
 * service Siteward runs that is not set up on this server. `settings` names what to set.
 */
export type UnavailableReason = {
  code: 'not_connected' | 'dev_mode' | 'not_configured';
  message: string;
  settings: string[];
};

/** An option's human texts: `label` for the field, `help` under it, `rule` for a refused value (docs/spec/compat.md §9). */
export type OptionTexts = { label: string; help: string; rule: string };

/** An entry of GET /module/all (§3.7) and of `Initial_State.getModules`. */
export type ModuleRecord = ModuleHeader & {
  module: string;
  activated: boolean;
  deactivate_nonce: string;
  activate_nonce: string;
  available: boolean;
  short_description: string;
  configure_url: string;
  learn_more_button: string;
  long_description: string;
  search_terms: string;
  /** A link to the settings when the user may change them. */
  configurable: string | false;
  /** Null for a module without options. */
  options: Record<string, ModuleOption> | null;
  /** Only the `sitemaps` module. */
  extra?: { sitemap_url: string; news_sitemap_url: string };
  runtime: ModuleRuntime;
  /** Null while `available`. */
  unavailable_reason: UnavailableReason | null;
  /** Each option's texts by key; null for a module without options. */
  option_texts: Record<string, OptionTexts> | null;
};

/** GET /module/:slug (§3.8): header fields and options; `activated: false` while unavailable. */
export type ModuleDetail = ModuleHeader & {
  options: Record<string, ModuleOption> | null;
  activated?: false;
  runtime: ModuleRuntime;
  /** Null while the module is available. */
  unavailable_reason: UnavailableReason | null;
  option_texts: Record<string, OptionTexts> | null;
};

export type ModuleMap = Record<string, ModuleRecord>;

/** GET /connection (§3.1) and `Initial_State.connectionStatus`. */
export interface ConnectionStatus {
  isActive: boolean;
  isStaging: boolean;
  isPublic?: boolean;
  devMode: { isActive: boolean; constant: boolean; url: boolean; filter: boolean };
}

export type UserPermission =
  | 'admin_page'
  | 'connect'
  | 'disconnect'
  | 'manage_modules'
  | 'manage_options'
  | 'view_stats'
  | 'edit_posts'
  | 'network_admin'
  | 'network_sites_page';

export interface CurrentUser {
  isConnected: boolean;
  isMaster: boolean;
  username: string;
  wpcomUser?: { ID?: number; login?: string; email?: string; display_name?: string; avatar?: string };
  gravatar?: string;
  permissions: Partial<Record<UserPermission, boolean>>;
}

/** GET /connection/data (4.3+) and `Initial_State.userData` (the 2016 `user-connection-data`). */
export interface UserData {
  /** Only in `Initial_State` and the 2016 `user-connection-data`; `connection/data` (4.3+) has no such key. */
  othersLinked?: boolean | number;
  currentUser: CurrentUser;
  /** Only in `connection/data` (4.3+, today's key): the connection owner's display name, null when none. */
  connectionOwner?: string | null;
}

/** `Initial_State` (§11): the keys the admin page reads. */
export interface InitialState {
  WP_API_root: string;
  WP_API_nonce: string;
  connectionStatus: ConnectionStatus;
  dismissedNotices: Record<string, boolean> | unknown[];
  getModules: ModuleMap;
  showJumpstart: string | boolean;
  adminUrl?: string;
  rawUrl?: string;
  currentVersion?: string;
  settingNames?: Record<string, string>;
  userData: UserData;
  /** Siteward's own: whether an account service is configured (SITEWARD_ACCOUNTS_ISSUER), so the page says so before offering to connect. */
  accountServiceConfigured?: boolean | string;
}

export interface CodeMessage {
  code: string;
  message: string;
}

/** GET /updates/plugins (§3.22). */
export interface PluginUpdates extends CodeMessage {
  count: number;
}

/** GET /akismet/stats/get (§3.23): the stats object, or a bare string error code. */
export type AkismetStats =
  | { all?: { spam?: number; ham?: number; accuracy?: number; time_saved?: number; false_positives?: number; missed_spam?: number } }
  | string;

/** What module/vaultpress/data says of one backup target (a Siteward addition). */
export interface BackupTargetState {
  kind: string;
  where: string;
  status: 'ok' | 'failed' | 'none';
  last_failure: { time: number; message: string } | null;
  verification: { id: string | null; time: number; ok: boolean; message: string } | null;
}

/** GET /module/vaultpress/data (§3.24). */
export interface VaultPressData extends CodeMessage {
  data?: {
    /** Siteward adds status, size, count, next_backup and targets to the reference's last_backup. */
    backups?: {
      last_backup?: number | string | null;
      status?: string;
      size?: number | null;
      count?: number;
      next_backup?: number | null;
      targets?: BackupTargetState[];
      [k: string]: unknown;
    };
    security?: { notice_count?: number };
    [k: string]: unknown;
  };
}
