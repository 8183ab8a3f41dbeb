import { defineConfig } from "vite";

// The Go binary embeds frontend/dist. Vite empties it on every build, so the
// committed dist/.gitkeep (which lets a fresh clone compile the embed) is
// restored from public/.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
});
