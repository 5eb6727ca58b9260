/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The end-to-end suite builds with the Auth emulator switched on; it gets its own
  // output folder so it can never overwrite (or be mistaken for) a production build.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
