/**
 * Chat webhook bodies, shared by Monitor's notifications and the audit log's forwarding and
 * alerts: `slack` (`{"text": …}`, which Slack incoming webhooks, Mattermost and Discord's
 * `/slack` endpoints take) and `discord` (`{"content": …}`, Discord's own webhook body).
 */
export type ChatFormat = 'slack' | 'discord';

/** The body of one chat message with a bold subject line. */
export function chatBody(format: ChatFormat, subject: string, text: string): Record<string, string> {
  return format === 'slack' ? { text: `*${subject}*\n${text}` } : { content: `**${subject}**\n${text}` };
}

/** Discord refuses a `content` over 2000 characters; Slack truncates a `text` past 40,000. */
export const CHAT_LIMIT: Readonly<Record<ChatFormat, number>> = { slack: 39_000, discord: 1_900 };

/**
 * The chat messages for `lines` under one subject, split at line ends so that each message
 * stays within the service's limit (a single over-long line is cut).
 */
export function chatBodies(format: ChatFormat, subject: string, lines: readonly string[]): Record<string, string>[] {
  const limit = CHAT_LIMIT[format] - subject.length - 8;
  const bodies: Record<string, string>[] = [];
  let text = '';
  for (const raw of lines) {
    const line = raw.length > limit ? `${raw.slice(0, limit - 1)}…` : raw;
    if (text !== '' && text.length + 1 + line.length > limit) {
      bodies.push(chatBody(format, subject, text));
      text = '';
    }
    text = text === '' ? line : `${text}\n${line}`;
  }
  if (text !== '') bodies.push(chatBody(format, subject, text));
  return bodies;
}
