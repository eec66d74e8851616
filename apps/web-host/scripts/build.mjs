/** `nx run web-host:build`: bundles the web host into dist/ and prints the bundle size; exits 1 when the build fails. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWebHost, formatSizes } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  console.log(formatSizes(await bundleWebHost({ root })));
} catch (error) {
  const messages = Array.isArray(error?.errors) && error.errors.length > 0 ? error.errors.map((e) => `${e.location?.file ?? ''}${e.location ? `:${e.location.line}` : ''} ${e.text}`.trim()) : [String(error?.message ?? error)];
  console.error(`The web host did not build:\n${messages.map((m) => `  ${m}`).join('\n')}`);
  process.exitCode = 1;
}
