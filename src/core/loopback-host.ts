import { isIP } from 'node:net';

/**
 * 127.0.0.0/8, ::1 and localhost: the hosts a plain-http account service may use, since nothing
 * leaves the machine. Brackets of an IPv6 URL host are accepted.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (host.toLowerCase() === 'localhost') return true;
  if (isIP(host) === 4) return host.split('.')[0] === '127';
  if (isIP(host) === 6) return host === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(host) || host === '0:0:0:0:0:0:0:1';
  return false;
}
