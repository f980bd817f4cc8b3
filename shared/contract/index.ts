import type { z } from 'zod';
import { appCalls } from './app';
import { catalogueCalls } from './catalogue';
import { chatCalls } from './chat';
import { compareCalls } from './compare';
import { documentCalls } from './documents';
import { endpointCalls } from './endpoints';
import type { CallDef, StreamDef } from './define';
import { hardwareCalls } from './hardware';
import { hubRepoCalls } from './hub-repo';
import { hubSearchCalls } from './hub-search';
import { localCalls } from './local';
import { mcpCalls } from './mcp';
import { networkCalls } from './network';
import { ollamaCalls } from './ollama';
import { settingsCalls } from './settings';
import { snippetsCalls } from './snippets';

/** Every call between renderer and main, declared once. Add a domain by spreading its calls here. */
export const contract = {
  ...appCalls,
  ...settingsCalls,
  ...networkCalls,
  ...snippetsCalls,
  ...ollamaCalls,
  ...catalogueCalls,
  ...hubSearchCalls,
  ...hubRepoCalls,
  ...chatCalls,
  ...endpointCalls,
  ...mcpCalls,
  ...hardwareCalls,
  ...localCalls,
  ...compareCalls,
  ...documentCalls,
} as const;

export type Contract = typeof contract;
export type Name = keyof Contract;
export type CallName = { [K in Name]: Contract[K] extends CallDef ? K : never }[Name];
export type StreamName = { [K in Name]: Contract[K] extends StreamDef ? K : never }[Name];

type Def<K extends Name> = Contract[K];
/** What a caller passes (before zod defaults/transforms). */
export type Input<K extends Name> = z.input<Def<K>['input']>;
/** What a handler receives (after validation). */
export type ParsedInput<K extends Name> = z.output<Def<K>['input']>;
export type Output<K extends CallName> = z.output<Extract<Def<K>, CallDef>['output']>;
export type StreamEvent<K extends StreamName> = z.output<Extract<Def<K>, StreamDef>['event']>;
export type StreamResult<K extends StreamName> = z.output<Extract<Def<K>, StreamDef>['result']>;

export function isCallName(name: string): name is CallName {
  return Object.hasOwn(contract, name) && contract[name as Name].kind === 'call';
}
export function isStreamName(name: string): name is StreamName {
  return Object.hasOwn(contract, name) && contract[name as Name].kind === 'stream';
}

export * from './define';
