import { z } from 'zod';
import { call } from './define';

const appInfoSchema = z.object({
  name: z.literal('HubDesk'),
  version: z.string(),
  mode: z.enum(['desktop', 'web']),
  platform: z.string(),
  dataDir: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** Hosts the app may open in the system browser. */
export const externalHosts = [
  'huggingface.co',
  'hf.co',
  'hf.space',
  'github.com',
  'ollama.com',
  'www.youtube.com',
  'youtube.com',
  'pypi.org',
  'www.npmjs.com',
  'fal.ai',
] as const;

export const appCalls = {
  'app.info': call({ input: z.object({}).strict(), output: appInfoSchema }),
  /** Checks a link against the allow-list; the desktop app opens it in the system browser. */
  'app.openExternal': call({
    input: z.object({ url: z.string().url().max(2048) }).strict(),
    output: z.object({ opened: z.boolean() }),
  }),
};
