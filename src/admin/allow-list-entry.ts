/**
 * The first entry of an allow list that is not an IP address, a range (`low - high`) or a CIDR
 * block, as the admin page names it beside Protect's field (the server's message stays
 * Jetpack's, which names no entry). The same split as the server's parser (protect/allow-list.ts):
 * commas and new lines separate entries, spaces are ignored.
 */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!text.includes(':') || !/^[0-9a-f:.]+$/i.test(text)) return false;
  try {
    // The URL parser knows IPv6 literals exactly; anything else throws.
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

const isAddress = (text: string) => IPV4.test(text) || isIpv6(text);

function isEntry(item: string): boolean {
  if (item.includes('/')) {
    const [address = '', bits = '', ...rest] = item.split('/');
    const max = IPV4.test(address) ? 32 : isIpv6(address) ? 128 : -1;
    return rest.length === 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= max;
  }
  const dash = item.indexOf('-');
  if (dash > 0) {
    const parts = item.split('-');
    return parts.length === 2 && isAddress(parts[0]!) && isAddress(parts[1]!);
  }
  return isAddress(item);
}

export function badAllowListEntry(list: string): string | null {
  for (const line of list.replace(/ /g, '').replace(/,/g, '\n').split('\n')) {
    const item = line.trim();
    if (item !== '' && !isEntry(item)) return item;
  }
  return null;
}
