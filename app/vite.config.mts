import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';

// The screens, built into app/dist and served by the service under /app (src/server/app.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [
    preact(),
    // An installable web app (issue 50): a service worker (Workbox, generated at build time) keeps
    // every file of the build, so the screens open and the pit desk records with the service out of
    // reach. It keeps no answer of the API: a desk keeps its own (app/src/offline.ts).
    VitePWA({
      injectRegister: 'script',
      registerType: 'autoUpdate',
      manifest: {
        name: 'Sabot',
        short_name: 'Sabot',
        description: 'The back office of baccarat tables: the pit desk, the cage, the VIP room, finance and surveillance',
        start_url: '/app/',
        scope: '/app/',
        display: 'standalone',
        background_color: '#101214',
        theme_color: '#101214',
        icons: [{ src: '/app/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg}'],
        navigateFallback: '/app/index.html',
        navigateFallbackAllowlist: [/^\/app\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  // The manifest names each screen's chunk and what it imports: scripts/bundle-sizes.mjs reads it.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, manifest: true },
});
