/** The forwarder for the configured sinks (settings in ../settings.ts); null when none is configured. */
import type { Config } from '../../../config/config.js';
import type { Logger } from '../../../core/logger.js';
import type { Store } from '../../../store/types.js';
import { featureDb } from '../../db/feature-db.js';
import { Forwarder, type ForwardTables } from './forwarder.js';
import { otlpSink, webhookSink } from './http-sinks.js';
import type { Sink } from './items.js';
import { syslogSink } from './syslog-sink.js';

export function configuredSinks(config: Config): Sink[] {
  const sinks: Sink[] = [];
  const site = config.homeUrl;
  if (config.auditSyslogUrl !== null) sinks.push(syslogSink({ url: config.auditSyslogUrl, caFile: config.auditSyslogCa }));
  if (config.auditOtlpUrl !== null) sinks.push(otlpSink(config.auditOtlpUrl, config.auditOtlpHeaders, { site }));
  if (config.auditWebhookUrl !== null) sinks.push(webhookSink(config.auditWebhookUrl, config.auditWebhookFormat, { site }));
  return sinks;
}

export function createForwarder(config: Config, store: Store, log: Logger, sinks = configuredSinks(config)): Forwarder {
  return new Forwarder({
    sinks,
    log: store.auditLog,
    db: featureDb<ForwardTables>(store),
    onError: (sink, error) =>
      log.warn(
        { sink: sink.name, target: sink.target, err: error instanceof Error ? error.message : String(error) },
        'audit forwarding failed; it will be retried',
      ),
  });
}
