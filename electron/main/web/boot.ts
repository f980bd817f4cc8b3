import { createHandlers } from '../handlers';
import { Router } from '../router';
import { createServices, type ServicesOptions } from '../services';

/** The web mode's services and router: loaded by web.ts with import() once the server listens. */
export function bootWeb(opts: ServicesOptions) {
  // The app's own run (not the CLI): the local server starts if the user left it on.
  const services = createServices({ ...opts, local: { ...opts.local, serve: true } });
  return { services, router: new Router(createHandlers(services), services.log) };
}
