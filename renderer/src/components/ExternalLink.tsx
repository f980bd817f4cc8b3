import type { ReactNode } from 'react';
import { isDesktop } from '../api';
import { useOpenExternal } from '../hooks/app';
import { Icon } from './Icon';

/**
 * A link that leaves the app. Main checks it against the allow-list; the desktop app opens it in the
 * system browser, the web mode in a new tab of the browser it already runs in.
 */
export function ExternalLink({
  href,
  children,
  className = 'external',
  testId,
}: {
  href: string;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const openExternal = useOpenExternal();
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      title={href}
      data-testid={testId}
      onClick={(e) => {
        if (!isDesktop) return;
        e.preventDefault();
        openExternal(href);
      }}
    >
      {children}
      <Icon name="external" size={12} />
    </a>
  );
}
