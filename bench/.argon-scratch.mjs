import { hash } from '@node-rs/argon2';
const fs = await import('node:fs');
const rss = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status','utf8'))[1])/1024;
const cost = JSON.parse(process.argv[2]);
const base = rss();
let best = [];
for (let r = 0; r < 3; r++) { const t0 = process.cpuUsage(); for (let i = 0; i < 10; i++) await hash('password-' + i, cost); const c = process.cpuUsage(t0); best.push((c.user + c.system) / 10000); }
console.log(JSON.stringify(cost), 'ms/hash', best.map((x) => x.toFixed(1)).join(' '), 'HWM +', (rss() - base).toFixed(1), 'MB');
