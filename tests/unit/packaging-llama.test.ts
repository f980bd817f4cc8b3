import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// electron-builder.yml read as electron-builder 26 reads it, through its own file matchers (no packaging, which
// downloads Electron): node-llama-cpp's native files are unpacked from the asar, and each platform and arch ships
// only its own llama.cpp binary packages.

const require = createRequire(import.meta.url);
const { getNodeModuleFileMatcher, getFileMatchers } = require('app-builder-lib/out/fileMatcher') as {
  getNodeModuleFileMatcher: (...a: unknown[]) => { createFilter(): Filter };
  getFileMatchers: (...a: unknown[]) => { createFilter(): Filter }[] | null;
};
const { expandMacro } = require('app-builder-lib/out/util/macroExpander') as {
  expandMacro: (p: string, arch: string | null, appInfo: unknown, extra: Record<string, string>) => string;
};
type Filter = (file: string, stat: { isDirectory(): boolean; moduleFullFilePath?: string }) => boolean;

const appDir = resolve('.');
const config = parse(readFileSync('electron-builder.yml', 'utf8')) as Record<string, unknown> & {
  asarUnpack: string[];
  files: string[];
};
const OS = { linux: 'linux', mac: 'mac', win: 'win' } as const;

function macros(os: keyof typeof OS, arch: string) {
  return (p: string) => expandMacro(p, arch, { sanitizedProductName: 'HubDesk' }, { os: OS[os], '/*': '{,/**/*}' });
}

const file = (rel: string) => ({ isDirectory: () => false, moduleFullFilePath: rel });

/** Whether a file of a module under node_modules is copied into the package for this target. */
function shipped(os: keyof typeof OS, arch: string): (rel: string) => boolean {
  const packager = { config, debugLogger: { isEnabled: false } };
  const platform = (config[os] ?? {}) as Record<string, unknown>;
  const filter = getNodeModuleFileMatcher(appDir, appDir, macros(os, arch), platform, packager).createFilter();
  return (rel) => filter(join(appDir, rel), file(rel));
}

const PACKAGES = [
  'linux-x64',
  'linux-x64-cuda',
  'linux-x64-cuda-ext',
  'linux-x64-vulkan',
  'linux-arm64',
  'linux-armv7l',
  'mac-arm64-metal',
  'mac-x64',
  'win-x64',
  'win-x64-cuda',
  'win-x64-vulkan',
  'win-arm64',
];
const addon = (pkg: string) => `node_modules/@node-llama-cpp/${pkg}/bins/${pkg}/llama-addon.node`;

describe('packaging node-llama-cpp', () => {
  it.each([
    ['linux', 'x64', ['linux-x64', 'linux-x64-cuda', 'linux-x64-cuda-ext', 'linux-x64-vulkan']],
    ['linux', 'arm64', ['linux-arm64']],
    ['mac', 'arm64', ['mac-arm64-metal']],
    ['mac', 'x64', ['mac-x64']],
    ['win', 'x64', ['win-x64', 'win-x64-cuda', 'win-x64-vulkan']],
    ['win', 'arm64', ['win-arm64']],
  ] as const)('a %s %s build ships only its own binary packages', (os, arch, own) => {
    const ships = shipped(os, arch);
    expect(PACKAGES.filter((p) => ships(addon(p)))).toEqual(own);
    // node-llama-cpp itself, and the rest of the app's modules, are untouched.
    expect(ships('node_modules/node-llama-cpp/dist/index.js')).toBe(true);
    expect(ships('node_modules/node-llama-cpp/package.json')).toBe(true);
    expect(ships('node_modules/@libsql/linux-x64-gnu/index.node')).toBe(true);
    expect(ships(`node_modules/node-llama-cpp/llama/localBuilds/${os}-${arch}-release/Release/llama-addon.node`)).toBe(
      true,
    );
    expect(ships('node_modules/node-llama-cpp/llama/localBuilds/other-os-release/Release/llama-addon.node')).toBe(
      false,
    );
  });

  it('each platform section excludes the other platforms by name', () => {
    const names = (os: string) => ((config[os] as { files?: string[] }).files ?? []).join(' ');
    expect(names('linux')).toMatch(/!node_modules\/@node-llama-cpp\/mac-\*/);
    expect(names('linux')).toMatch(/!node_modules\/@node-llama-cpp\/win-\*/);
    expect(names('mac')).toMatch(/!node_modules\/@node-llama-cpp\/linux-\*/);
    expect(names('mac')).toMatch(/!node_modules\/@node-llama-cpp\/win-\*/);
    expect(names('win')).toMatch(/!node_modules\/@node-llama-cpp\/linux-\*/);
    expect(names('win')).toMatch(/!node_modules\/@node-llama-cpp\/mac-\*/);
  });

  it('unpacks node-llama-cpp and its binaries from the asar (dlopen cannot read inside it), and libsql still', () => {
    const matchers = getFileMatchers(config, 'asarUnpack', appDir, {
      macroExpander: macros('linux', 'x64'),
      customBuildOptions: config.linux,
      globalOutDir: join(appDir, 'dist'),
      defaultSrc: appDir,
    });
    const unpack = matchers![0].createFilter();
    const unpacked = (rel: string) => unpack(join(appDir, rel), file(rel));
    expect(unpacked(addon('linux-x64'))).toBe(true);
    expect(unpacked('node_modules/@node-llama-cpp/linux-x64-vulkan/bins/linux-x64-vulkan/libggml-vulkan.so')).toBe(
      true,
    );
    expect(unpacked('node_modules/node-llama-cpp/dist/bindings/getLlama.js')).toBe(true);
    expect(unpacked('node_modules/@libsql/linux-x64-gnu/index.node')).toBe(true);
    expect(unpacked('out/main/index.js')).toBe(false);
    expect(unpacked('node_modules/zod/index.js')).toBe(false);
  });

  it('the names match what npm installs: the binary packages are node-llama-cpp optional dependencies', () => {
    const pkg = JSON.parse(readFileSync('node_modules/node-llama-cpp/package.json', 'utf8')) as {
      optionalDependencies: Record<string, string>;
    };
    const optional = Object.keys(pkg.optionalDependencies).map((n) => n.replace('@node-llama-cpp/', ''));
    for (const p of PACKAGES) expect(optional).toContain(p);
    // What is installed here has the layout the patterns assume: bins/<package>/ with the addon in it.
    const installed = readdirSync('node_modules/@node-llama-cpp');
    expect(installed.length).toBeGreaterThan(0);
    // (linux-x64-cuda-ext holds its addon under bins/linux-x64-cuda: still the package's own os-arch prefix.)
    for (const p of installed) {
      const [bins] = readdirSync(`node_modules/@node-llama-cpp/${p}/bins`);
      expect(p.startsWith(bins.split('-').slice(0, 2).join('-'))).toBe(true);
    }
  });

  it('node-llama-cpp is a runtime dependency, pinned, and external to the main bundle', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.dependencies['node-llama-cpp']).toBe('3.21.1');
    expect(pkg.devDependencies['node-llama-cpp']).toBeUndefined();
    expect(readFileSync('electron.vite.config.ts', 'utf8')).toMatch(/external: \[[^\]]*node-llama-cpp/);
    // After `npm run build`: the main bundle imports it at run time and never carries a copy of it.
    const main = 'out/main';
    if (!existsSync(main)) return;
    const all = readdirSync(main, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(main, f), 'utf8'))
      .join('\n');
    expect(all).not.toMatch(/class LlamaChatSession\b/);
    expect(all).not.toMatch(/from ["']node-llama-cpp["']|require\(["']node-llama-cpp["']\)/);
  });
});
