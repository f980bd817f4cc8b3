// The network-proxy figure's stand-ins (bench/lib/network-stack.ts) in a process of their own.
import { ssrLoader } from '../scripts/ssr-loader.mjs';

const [dir, repo, file, size] = process.argv.slice(2);
const loader = await ssrLoader();
const mod = await loader.load('/bench/lib/network-stack.ts');
await mod.run(dir, repo, file, Number(size));
await loader.close();
