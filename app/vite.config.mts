import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The screens, built into app/dist and served by the service under /app (src/server/app.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [preact()],
  // The manifest names each screen's chunk and what it imports: scripts/bundle-sizes.mjs reads it.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, manifest: true },
});
