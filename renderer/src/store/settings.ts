import { create } from 'zustand';
import type { SecretName, SettingsPatch, SettingsView, Theme } from '@shared/contract/settings';
import type { Input } from '@shared/contract';
import type { AppError } from '@shared/errors';
import { api } from '../api';

interface SettingsState {
  view?: SettingsView;
  error?: AppError;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<void>;
  setSecret(name: SecretName, value: string): Promise<void>;
  clearSecret(name: SecretName): Promise<void>;
  /** Lets a key go to a host set in the page, after main's own dialog said yes (desktop). Throws what main refused. */
  approveKey(setting: Input<'keys.approve'>['setting']): Promise<void>;
  /** Without a keyring: keep secrets on disk (obfuscated) or only for this session. Throws what main refused. */
  keepSecretsWithoutKeyring(keep: boolean): Promise<void>;
}

/** Settings as main owns them; every change goes through main and comes back validated. */
export const useSettings = create<SettingsState>((set) => {
  const run = async (fn: () => Promise<SettingsView>) => {
    try {
      set({ view: await fn(), error: undefined });
    } catch (e) {
      set({ error: e as AppError });
      throw e;
    }
  };
  return {
    load: () => run(() => api.call('settings.get', {})).catch(() => {}),
    update: (patch) => run(() => api.call('settings.update', patch)),
    setSecret: (name, value) => run(() => api.call('secrets.set', { name, value })),
    clearSecret: (name) => run(() => api.call('secrets.clear', { name })),
    approveKey: async (setting) => set({ view: await api.call('keys.approve', { setting }) }),
    keepSecretsWithoutKeyring: async (keep) => set({ view: await api.call('secrets.keepWithoutKeyring', { keep }) }),
  };
});

export function resolvedTheme(theme: Theme | undefined, prefersDark: boolean): 'light' | 'dark' {
  if (theme === 'light' || theme === 'dark') return theme;
  return prefersDark ? 'dark' : 'light';
}
