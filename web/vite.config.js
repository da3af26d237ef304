import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The page is served by the server itself at /, so every asset is relative to it and nothing is
// fetched from anywhere else: tldraw's fonts, icons and translations come from @tldraw/assets and are
// emitted into the bundle (see src/assets.js). Maven passes --outDir (the jar's webroot).
export default defineConfig({
  base: './',
  plugins: [react()],
  // sockjs-client was written for browserify and still reads `global`.
  define: { global: 'globalThis' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // tldraw alone is over a megabyte; the page is one application, not a site to split.
    chunkSizeWarningLimit: 4096,
    assetsInlineLimit: 0,
  },
  server: {
    // `npm run dev` next to a running server: the page on Vite's port, the API and bus on 8080.
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/eventbus': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
})
