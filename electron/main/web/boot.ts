import { createHandlers } from '../handlers';
import { Router } from '../router';
import { createServices, type ServicesOptions } from '../services';

/** The web mode's services and router: loaded by web.ts with import() once the server listens. */
export function bootWeb(opts: ServicesOptions) {
  const services = createServices(opts);
  return { services, router: new Router(createHandlers(services), services.log) };
}
