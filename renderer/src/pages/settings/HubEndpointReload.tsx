import { useSettings } from '../../store/settings';
import { cspAllowsImagesFrom, pageCsp } from './csp-images';

/**
 * Under the Hub endpoint field: the page's CSP was fixed when it loaded, so card images from a new endpoint (a
 * mirror) load only after a reload. Main already serves the new policy; Reload keeps the page's address.
 */
export function HubEndpointReload() {
  const endpoint = useSettings((s) => s.view?.values.hubEndpoint);
  if (cspAllowsImagesFrom(pageCsp(), endpoint)) return null;
  return (
    <p className="help" role="status" data-testid="hub-endpoint-reload">
      Card images from the new endpoint load after a reload.{' '}
      <button type="button" className="btn btn-ghost" onClick={() => window.location.reload()}>
        Reload
      </button>
    </p>
  );
}
