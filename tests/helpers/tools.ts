import { WEB_TOOLS, toolKey } from '@shared/contract/chat-conversation';

/** A conversation patch that turns the web tools on and allows them "always" (tests that are not about approval). */
export const webToolsAllowed = {
  toolSources: [WEB_TOOLS],
  toolsAllowed: [toolKey(WEB_TOOLS, 'web_search'), toolKey(WEB_TOOLS, 'web_fetch')],
};
