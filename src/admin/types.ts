/** Shapes of what the page gets: Initial_State (reference §11) and the jetpack/v4 answers it reads. */

export interface ModuleOption {
  description: string;
  type: 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object';
  default: unknown;
  enum?: Record<string, string>;
  sanitize_callback?: string;
  current_value: unknown;
}

export interface ModuleRecord {
  module: string;
  name: string;
  description: string;
  short_description?: string;
  long_description?: string;
  jumpstart_desc: string;
  sort: number;
  requires_connection: boolean;
  auto_activate: string;
  module_tags: string[];
  feature: string[];
  additional_search_queries?: string;
  search_terms?: string;
  activated: boolean;
  available: boolean;
  deactivate?: boolean;
  free?: boolean;
  configure_url?: string;
  runtime?: 'siteward' | 'site';
  options: Record<string, ModuleOption> | null;
}

export type ModuleMap = Record<string, ModuleRecord>;

export interface ConnectionStatus {
  isActive: boolean;
  isStaging: boolean;
  isPublic?: boolean;
  devMode: { isActive: boolean; constant: boolean; url: boolean; filter: boolean };
}

export interface CurrentUser {
  isConnected: boolean;
  isMaster: boolean;
  username: string;
  wpcomUser?: { ID?: number; login?: string; email?: string; display_name?: string; avatar?: string };
  permissions: Partial<Record<'admin_page' | 'connect' | 'disconnect' | 'manage_modules' | 'manage_options' | 'view_stats' | 'edit_posts', boolean>>;
}

export interface UserData {
  /** Only in `Initial_State` and the 2016 `user-connection-data`; `connection/data` (4.3+) has no such key. */
  othersLinked?: boolean | number;
  currentUser: CurrentUser;
}

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
}

export interface CodeMessage {
  code: string;
  message: string;
}

/** §3.22 */
export interface PluginUpdates extends CodeMessage {
  count: number;
}

/** §3.23: the stats object, or a bare string error code. */
export type AkismetStats = { all?: { spam?: number; ham?: number; accuracy?: number; time_saved?: number; false_positives?: number; missed_spam?: number } } | string;

/** §3.24 */
export interface VaultPressData extends CodeMessage {
  data?: {
    /** Siteward adds status, size, count and next_backup to the reference's last_backup. */
    backups?: { last_backup?: number | string | null; status?: string; size?: number | null; count?: number; next_backup?: number | null; [k: string]: unknown };
    security?: { notice_count?: number };
    [k: string]: unknown;
  };
}

/** siteward/v1/protect/history */
export interface ProtectHistory {
  days: number;
  timezone: string;
  total: number;
  history: { date: string; count: number }[];
}

/** siteward/v1/monitor/history */
export interface MonitorHistory {
  days: number;
  /** Every check's state, the site first (absent from servers before it was added). */
  checks?: { id: number; site: boolean; url: string; state: 'up' | 'down' | 'unknown'; downSince: string | null }[];
  intervals: { start: string; end: string | null; duration: number; reason: string }[];
}
