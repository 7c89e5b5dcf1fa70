// The pay app's configuration, read once from the environment (runtime contract › Configuration).
// The pay app holds no secret: BASE_URL is the public API it calls from the server side.

export interface PayConfig {
  /** the API, without a trailing slash */
  baseUrl: string;
  /** the logo fetch may reach private and loopback addresses: only with SVC_ENV development or test */
  allowPrivateLogoHosts: boolean;
}

let cached: PayConfig | null = null;

export function loadPayConfig(env: Record<string, string | undefined> = process.env): PayConfig {
  const raw = env.BASE_URL?.trim() || 'http://localhost:3000';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`BASE_URL must be an http(s) URL, got ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`BASE_URL must be an http(s) URL, got ${raw}`);
  return {
    baseUrl: url.toString().replace(/\/+$/, ''),
    allowPrivateLogoHosts: env.SVC_ENV === 'development' || env.SVC_ENV === 'test',
  };
}

export function payConfig(): PayConfig {
  cached ??= loadPayConfig();
  return cached;
}
