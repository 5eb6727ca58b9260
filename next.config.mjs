/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  experimental: {
    // The pages' CSS is a few KiB: inlined into the document it stops being a render-blocking
    // request before the first paint (docs/DECISIONS.md). CSP allows inline styles (style-src).
    inlineCss: true,
  },
  // The end-to-end suite builds with the Auth emulator switched on; it gets its own
  // output folder so it can never overwrite (or be mistaken for) a production build.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // The test builds (the e2e suite's, the production-build check) skip Next's type pass: type
  // errors are `npm run typecheck`'s job, which `npm test` runs first. `npm run build` checks.
  typescript: { ignoreBuildErrors: process.env.PARLEY_BUILD_SKIP_TYPECHECK === '1' },
  env: {
    // Always defined, so a build without the emulator inlines '' and drops the emulator-only
    // code (the test-account sign-in) instead of shipping it behind a runtime check.
    NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: process.env.NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST ?? '',
  },
};

export default nextConfig;
