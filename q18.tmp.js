const { spawn } = require('node:child_process');
(async () => {
  const port = 25555;
  const child = spawn(process.execPath, ['--max-old-space-size=192', '--max-semi-space-size=8', 'dist/src/main.js'], { env: { ...process.env, PORT: String(port), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/sabot_bench_reports_10m', ADMIN_API_KEY: 'bench-admin-key-0123456789abcdef0123456789', LOG_LEVEL: 'warn' }, stdio: 'inherit' });
  for (let i = 0; i < 100; i++) { try { if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 100)); }
  const http = require('node:http');
  const get = () => new Promise((resolve) => { const t0 = performance.now(); let first = 0, bytes = 0; http.get(`http://127.0.0.1:${port}/v1/reports/win-loss?from=2026-07-01&to=2026-09-30&groupBy=table,gamingDay`, { headers: { Authorization: 'Bearer bench-admin-key-0123456789abcdef0123456789' } }, (res) => { res.on('data', (b) => { if (!first) first = performance.now() - t0; bytes += b.length; }); res.on('end', () => resolve([first, performance.now() - t0, bytes])); }); });
  for (let i = 0; i < 5; i++) await get();
  const rs = []; for (let i = 0; i < 15; i++) rs.push(await get());
  rs.sort((a, b) => a[1] - b[1]);
  console.log('ttfb/total', rs.map((r) => `${r[0].toFixed(0)}/${r[1].toFixed(0)}`).join(' '));
  child.kill('SIGTERM');
})();
