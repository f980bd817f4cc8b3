const BROWSERS: [RegExp, string][] = [
  [/\bEdg\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bChrom(?:e|ium)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* .*Safari\//, 'Safari'],
];

/**
 * A `User-Agent` as a person scans it in the log: the client and its major version. The Stainless SDKs (OpenAI's
 * and Anthropic's) say `OpenAI/JS 6.9.1` → `OpenAI/JS 6.x`; browsers their name (`Chrome 140`); anything else its
 * first product (`curl/8.5.0` → `curl/8`; `python-httpx/0.27.0` → `python-httpx`, since a 0.x says little).
 */
export function clientName(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return 'unknown client';
  const sdk = /^([A-Za-z]+)\/([A-Za-z.]+) v?(\d+)\.\d/.exec(ua);
  if (sdk) return `${sdk[1]}/${sdk[2]} ${sdk[3]}.x`;
  if (ua.startsWith('Mozilla/'))
    for (const [re, name] of BROWSERS) {
      const m = re.exec(ua);
      if (m) return `${name} ${m[1]}`;
    }
  const product = /^([A-Za-z][\w.+-]*)(?:\/v?(\d+))?/.exec(ua);
  if (product) return product[2] && product[2] !== '0' ? `${product[1]}/${product[2]}` : product[1]!;
  return ua.slice(0, 40);
}
